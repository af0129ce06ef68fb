package org.rampa.examples.experiment;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.GpuPool;
import org.rampa.domain.Invalid;
import org.rampa.examples.experiment.ClusterExperiment.Config;
import org.rampa.examples.experiment.ClusterExperiment.Regime;
import org.rampa.examples.experiment.ClusterExperiment.Row;
import org.rampa.examples.experiment.ClusterMixes.Cluster;
import org.rampa.examples.experiment.ClusterMixes.DemandLine;
import org.rampa.json.InputFiles;

/**
 * The CSV files {@code rampa colocate}'s experiment mode reads: a cluster ({@code gpu_type,count}),
 * a demand ({@code model,rate,slo_ms,max_batch}) and its own raw results ({@code e2.csv}, to redraw
 * the summary and charts of several runs together). Lines starting with {@code #} are comments.
 */
public final class ClusterInputs {
  /** The most GPUs a cluster file may list in all, as for every cluster (README, input limits). */
  public static final int MAX_GPUS = 100_000;
  /** The highest request rate of one demand line: far beyond what a 100 000-GPU cluster serves, and a bound on the segments a plan may need. */
  public static final double MAX_RATE = 1e6;
  /** A demand line's SLO in milliseconds lies in [this, {@link #MAX_SLO_MS}]: below a microsecond no segment can meet it, and it would round away. */
  public static final double MIN_SLO_MS = 1e-3;
  /** The longest SLO in milliseconds, one hour, as for any step time. */
  public static final double MAX_SLO_MS = 3.6e6;

  private ClusterInputs() {}

  /** A cluster file: catalog GPU types and their counts. */
  public static Cluster cluster(Path file) {
    List<GpuPool> pools = new ArrayList<>();
    long total = 0;
    List<String[]> rows = rows(file, "gpu_type,count");
    for (int i = 0; i < rows.size(); i++) {
      String[] r = rows.get(i);
      String where = file + " line " + (i + 2);
      requireColumns(where, r, 2);
      String type = r[0].trim();
      if (!GpuCatalog.standard().ids().contains(type)) {
        throw Invalid.value(where + ": gpu_type", type, "is not a catalog GPU type", "use one of " + GpuCatalog.standard().ids());
      }
      int count = integer(where + ": count", r[1], 1, MAX_GPUS);
      total += count;
      if (total > MAX_GPUS) {
        throw Invalid.value(where + ": count", count, "brings the cluster to " + total + " GPUs, more than the " + MAX_GPUS + " a cluster may have");
      }
      pools.add(new GpuPool(GpuCatalog.standard().type(type), SharingCatalog.standard().partitioning(type), count));
    }
    if (pools.isEmpty()) {
      throw Invalid.value("--cluster-file", file, "lists no GPU type", "add lines gpu_type,count under the header");
    }
    String name = file.getFileName().toString().replaceFirst("\\.csv$", "");
    return Cluster.custom(name.isBlank() || name.contains(",") ? "custom" : name, pools);
  }

  /** A demand file: one service per line. */
  public static List<DemandLine> demand(Path file) {
    List<DemandLine> out = new ArrayList<>();
    List<String[]> rows = rows(file, "model,rate,slo_ms,max_batch");
    for (int i = 0; i < rows.size(); i++) {
      String[] r = rows.get(i);
      String where = file + " line " + (i + 2);
      requireColumns(where, r, 4);
      double rate = number(where + ": rate", r[1], Double.MIN_VALUE, MAX_RATE);
      double slo = number(where + ": slo_ms", r[2], MIN_SLO_MS, MAX_SLO_MS);
      int batch = integer(where + ": max_batch", r[3], 1, ClusterMixes.LARGE_BATCH);
      out.add(new DemandLine(r[0].trim(), rate, Duration.ofNanos(Math.round(slo * 1e6)), batch));
    }
    if (out.isEmpty()) {
      throw Invalid.value("--demand", file, "lists no service", "add lines model,rate,slo_ms,max_batch under the header");
    }
    return out;
  }

  /**
   * The rows of a raw {@code e2.csv} this command wrote (the plans themselves are not kept: the
   * fragmentation and reconfiguration columns are read back as written).
   */
  public static List<Row> raw(Path file) {
    List<String[]> rows = rows(file, "cluster,regime,small_share,batch_cap,seed,services,planner,status,scale,gain_over_exclusive,bound,"
        + "gap_to_bound,seconds,hit_time_limit,gpus_used,gpus_needed,needed_seconds,unusable_slices,idle_compute,reconfigured_gpus,layouts");
    List<Row> out = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      String[] r = rows.get(i);
      String where = file + " line " + (i + 2);
      requireColumns(where, r, 21);
      try {
        Regime regime = new Regime(r[1], number(where, "small_share", r[2], 1), Integer.parseInt(r[3]));
        Config c = new Config(new Cluster(r[0], List.of()), regime, Long.parseLong(r[4]), Integer.parseInt(r[5]), List.of());
        out.add(new Row(c, r[6], r[7], number(where, "scale", r[8], Double.MAX_VALUE),
            r[10].isEmpty() ? Double.NaN : number(where, "bound", r[10], Double.MAX_VALUE),
            number(where, "seconds", r[12], Double.MAX_VALUE) * 1e3, Boolean.parseBoolean(r[13]), Integer.parseInt(r[14]),
            r[15].isEmpty() ? -1 : Integer.parseInt(r[15]),
            r[16].isEmpty() ? Double.NaN : number(where, "needed_seconds", r[16], Double.MAX_VALUE) * 1e3, Integer.parseInt(r[17]),
            r[18].isEmpty() ? Double.NaN : number(where, "idle_compute", r[18], 1), Integer.parseInt(r[19]), Integer.parseInt(r[20])));
      } catch (NumberFormatException e) {
        throw Invalid.value(where, String.join(",", r), "is not a row of e2.csv (" + e.getMessage() + ")");
      }
    }
    return out;
  }

  /** A measured value read back: finite and in [0, max] (NaN or Infinity would reach the summary as "NaN ± NaN"). */
  private static double number(String where, String column, String text, double max) {
    double v = Double.parseDouble(text);
    if (!(v >= 0 && v <= max)) {
      throw Invalid.value(where + " column " + column, text, "must be a finite number in [0, " + (max == Double.MAX_VALUE ? "∞" : max) + "]",
          "an e2.csv written by rampa colocate has only such values; was the file edited?");
    }
    return v;
  }

  private static List<String[]> rows(Path file, String header) {
    List<String> lines = InputFiles.readText(file).lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    if (lines.isEmpty() || !lines.get(0).trim().equals(header)) {
      throw Invalid.value("file", file, "must start with the header line " + header, "see docs/vastpipe-e2.md");
    }
    return lines.subList(1, lines.size()).stream().map(l -> l.split(",", -1)).toList();
  }

  private static void requireColumns(String where, String[] r, int n) {
    if (r.length != n) {
      throw Invalid.value(where, String.join(",", r), "must have " + n + " comma-separated values");
    }
  }

  private static int integer(String field, String text, int min, int max) {
    try {
      int v = Integer.parseInt(text.trim());
      if (v < min || v > max) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw Invalid.value(field, text.trim(), "must be an integer in [" + min + ", " + max + "]");
    }
  }

  private static double number(String field, String text, double min, double max) {
    try {
      double v = Double.parseDouble(text.trim());
      if (!(v >= min && v <= max)) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw Invalid.value(field, text.trim(), "must be a number in " + (min == Double.MIN_VALUE ? "(0" : "[" + min) + ", " + max + "]");
    }
  }
}
