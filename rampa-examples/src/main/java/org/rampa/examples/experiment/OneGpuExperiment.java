package org.rampa.examples.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;

/**
 * VastPipe's E1 ("one accelerator") on ParvaGPU's measured A100-80GB tables: for a mix of k
 * services, exclusive use time-shares the whole GPU, so each service gets 1/k of its exclusive
 * throughput X_s; the mix's co-located throughput is the largest Z such that one GPU (any MIG
 * layout, 1 … 3 MPS processes per instance) serves every service at Z × X_s / k, found by the exact
 * planner. Z is therefore the gain over exclusive use (exclusive is Z = 1, switching costs ignored,
 * which favours exclusive).
 *
 * <p>Two regimes: {@code batch = b} fixes every segment's batch to b on both sides and lifts the
 * latency bound (the per-batch curve); {@code best-under-slo} gives every service ParvaGPU's
 * scenario SLO, exclusive its best batch under it and co-location any batch under it (the strong
 * baseline).
 */
public final class OneGpuExperiment {

  /** Latency bound of the fixed-batch regime: far above every measured batch time, so it never binds. */
  private static final Duration NO_SLO = Duration.ofHours(1);

  /** ParvaGPU's source: its measured tables. */
  public static final String SOURCE = "parvagpu";

  /** Every time is measured and MIG instances are isolated, so no interference model enters. */
  public static final String TIER = "measured";

  /**
   * One mix in one regime on one source's device; {@code gain} is empty when a service has no
   * exclusive measurement there or one GPU cannot host the mix.
   *
   * @param source the tables or model the times come from: parvagpu, muxserve, modelled
   * @param tier measured, measured times with modelled interference, or modelled
   * @param gamma the linear interference γ per contended co-runner; NaN where none enters (MIG)
   */
  public record Row(String source, String device, String tier, double gamma, String regime, int batch, List<String> mix,
      List<Double> exclusive, Optional<Double> gain, String status, String plan) {}

  private final ColocationPlanner planner;
  private final Duration timeLimit;
  private final int sloScenario;
  private final int exclusiveProcesses;

  /**
   * @param exclusiveProcesses MPS processes exclusive use may run on the 7g instance (1 … 3: 1 is
   *     the issue's "one process", more gives exclusive use the MPS overlap co-location has)
   */
  public OneGpuExperiment(ColocationPlanner planner, Duration timeLimit, int sloScenario, int exclusiveProcesses) {
    this.planner = planner;
    this.timeLimit = timeLimit;
    this.sloScenario = sloScenario;
    this.exclusiveProcesses = exclusiveProcesses;
  }

  /** Every pair and triple of ParvaGPU's models, which the SLO scenario lists. */
  public List<List<String>> mixes() {
    return pairsAndTriples(ParvaGpuScenarios.MODELS.stream().filter(m -> ParvaGpuScenarios.slo(sloScenario, m).isPresent()).toList());
  }

  /** Every pair of {@code names}, then every triple, in their order. */
  static List<List<String>> pairsAndTriples(List<String> names) {
    List<List<String>> out = new ArrayList<>();
    int n = names.size();
    for (int a = 0; a < n; a++) {
      for (int b = a + 1; b < n; b++) {
        out.add(List.of(names.get(a), names.get(b)));
      }
    }
    for (int a = 0; a < n; a++) {
      for (int b = a + 1; b < n; b++) {
        for (int c = b + 1; c < n; c++) {
          out.add(List.of(names.get(a), names.get(b), names.get(c)));
        }
      }
    }
    return out;
  }

  /** Runs every mix in every regime, calling {@code progress} after each solve. */
  public List<Row> run(List<List<String>> mixes, Consumer<Row> progress) {
    List<Row> rows = new ArrayList<>();
    for (List<String> mix : mixes) {
      for (int b : ParvaGpuScenarios.BATCHES) {
        Row r = solve("batch", b, mix, List.of(b), m -> NO_SLO);
        rows.add(r);
        progress.accept(r);
      }
      Row r = solve("best-under-slo", 0, mix, ParvaGpuScenarios.BATCHES, m -> ParvaGpuScenarios.slo(sloScenario, m).orElseThrow());
      rows.add(r);
      progress.accept(r);
    }
    return rows;
  }

  private Row solve(String regime, int batch, List<String> mix, List<Integer> batches, java.util.function.Function<String, Duration> slo) {
    List<Double> exclusive = new ArrayList<>();
    for (String m : mix) {
      Optional<Double> x = exclusiveThroughput(ParvaGpuScenarios.service(m, batches, 1, slo.apply(m)));
      if (x.isEmpty()) {
        return new Row(SOURCE, ParvaGpuScenarios.GPU_TYPE, TIER, Double.NaN, regime, batch, mix, exclusive, Optional.empty(), "NO_EXCLUSIVE_MEASUREMENT", "");
      }
      exclusive.add(x.get());
    }
    List<ColocationService> services = new ArrayList<>();
    for (int i = 0; i < mix.size(); i++) {
      // time-sharing k services gives each 1/k of the GPU: the demand Z scales from there
      services.add(ParvaGpuScenarios.service(mix.get(i), batches, exclusive.get(i) / mix.size(), slo.apply(mix.get(i))));
    }
    ColocationProblem problem = ParvaGpuScenarios.problem(services, 1, ColocationObjective.MAX_SCALE);
    ColocationResult result = planner.plan(problem, timeLimit);
    String plan = result.plan().filter(p -> !p.gpus().isEmpty()).map(p -> p.gpus().get(0).segments().stream()
        .map(s -> s.service() + " " + where(s.placement()) + " batch " + s.batch() + " x" + s.processes()).reduce((x, y) -> x + " | " + y).orElse(""))
        .orElse(result.reason());
    // scale 0 means one GPU cannot host every service of the mix at this batch at all (a service got
    // no instance): no gain to average, so the row keeps its status and the summary counts it as skipped
    Optional<Double> gain = result.plan().map(p -> result.value().orElseThrow()).filter(z -> z > 0);
    return new Row(SOURCE, ParvaGpuScenarios.GPU_TYPE, TIER, Double.NaN, regime, batch, mix, exclusive, gain, gain.isPresent() ? result.status().name() : "NO_COLOCATION_" + result.status().name(), plan);
  }

  /** A placement as a reader of the CSV wants it: the instance and its first slice. */
  private static String where(Placement p) {
    if (p instanceof MigSliceMps m) {
      return m.profile() + "@" + m.start();
    }
    if (p instanceof MigSlice m) {
      return m.profile() + "@" + m.start();
    }
    return p instanceof MpsShare m ? "mps " + m.fraction() : p.toString();
  }

  /**
   * Up to {@code exclusiveProcesses} processes alone on the whole GPU at the best batch under the service's SLO rule: ParvaGPU's
   * tables have no whole-card time, so the 7g instance alone is the whole card (as ExclusiveBaseline).
   */
  private Optional<Double> exclusiveThroughput(ColocationService service) {
    ColocationProblem alone = ParvaGpuScenarios.problem(List.of(service), 1, ColocationObjective.MAX_SCALE);
    GpuPool pool = alone.pools().get(0);
    String largest = pool.partitioning().requireMig().profiles().stream()
        .max(Comparator.comparingInt(MigProfile::computeSlices).thenComparingInt(MigProfile::memorySlices)).orElseThrow().name();
    return SegmentMenu.of(alone).options(pool.type().name(), service.id()).stream()
        .filter(o -> o.processes() <= exclusiveProcesses && largest.equals(o.profile())).map(SegmentOption::throughput).findFirst();
  }

  /** The mix average of one source, device, γ, regime and batch: geometric means of the gain (a ratio) over the mixes that have one. */
  public record Summary(String source, String device, String tier, double gamma, String regime, int batch, int mixes,
      double pairs, double triples, double all, double min, double max) {
    public String label() {
      return regime.equals("batch") ? Integer.toString(batch) : regime;
    }

    /** The source, device and γ this summary belongs to, as a chart legend or table heading says it. */
    public String group() {
      return source + " " + device + (Double.isNaN(gamma) ? "" : String.format(java.util.Locale.ROOT, " γ=%.2f", gamma))
          + (tier.equals(TIER) ? "" : " (" + tier + ")");
    }
  }

  public static List<Summary> summarise(List<Row> rows) {
    List<Summary> out = new ArrayList<>();
    java.util.Map<String, List<Row>> groups = new java.util.LinkedHashMap<>();
    rows.stream().filter(r -> r.gain().isPresent()).forEach(r -> groups.computeIfAbsent(
        r.source() + "/" + r.device() + "/" + r.gamma() + "/" + r.regime() + "/" + r.batch(), k -> new ArrayList<>()).add(r));
    for (List<Row> g : groups.values()) {
      Row first = g.get(0);
      double[] gains = g.stream().mapToDouble(r -> r.gain().orElseThrow()).toArray();
      out.add(new Summary(first.source(), first.device(), first.tier(), first.gamma(), first.regime(), first.batch(), g.size(),
          geomean(g, 2), geomean(g, 3), geomean(g, 0), java.util.Arrays.stream(gains).min().orElseThrow(), java.util.Arrays.stream(gains).max().orElseThrow()));
    }
    // within a group: the batch curve in batch order, then the best-under-slo regime
    out.sort(Comparator.comparing((Summary x) -> groupOrder(rows, x)).thenComparing(x -> !x.regime().equals("batch")).thenComparingInt(Summary::batch));
    return out;
  }

  private static int groupOrder(List<Row> rows, Summary s) {
    for (int i = 0; i < rows.size(); i++) {
      Row r = rows.get(i);
      if (r.source().equals(s.source()) && r.device().equals(s.device()) && Double.compare(r.gamma(), s.gamma()) == 0) {
        return i;
      }
    }
    return rows.size();
  }

  /** Geometric mean of the gains of mixes of {@code size} services (0: every size); NaN when none. */
  private static double geomean(List<Row> rows, int size) {
    double[] logs = rows.stream().filter(r -> size == 0 || r.mix().size() == size).mapToDouble(r -> Math.log(r.gain().orElseThrow())).toArray();
    return logs.length == 0 ? Double.NaN : Math.exp(java.util.Arrays.stream(logs).average().orElseThrow());
  }

  private static String gamma(double gamma) {
    return Double.isNaN(gamma) ? "" : String.format(java.util.Locale.ROOT, "%.2f", gamma);
  }

  public static void writeCsv(List<Row> rows, java.nio.file.Path file) {
    StringBuilder b = new StringBuilder("source,device,tier,gamma,regime,batch,mix_size,mix,exclusive_req_s,gain,status,plan\n");
    for (Row r : rows) {
      b.append(r.source()).append(',').append(r.device()).append(',').append(r.tier()).append(',').append(gamma(r.gamma())).append(',')
          .append(r.regime()).append(',').append(r.regime().equals("batch") ? Integer.toString(r.batch()) : "").append(',')
          .append(r.mix().size()).append(',').append(String.join("+", r.mix())).append(',')
          .append(r.exclusive().stream().map(x -> String.format(java.util.Locale.ROOT, "%.3f", x)).reduce((x, y) -> x + "+" + y).orElse("")).append(',')
          .append(r.gain().map(x -> String.format(java.util.Locale.ROOT, "%.6f", x)).orElse("")).append(',')
          .append(r.status()).append(",\"").append(r.plan().replace("\"", "'")).append("\"\n");
    }
    TextFiles.write(file, b.toString());
  }

  public static void writeSummaryCsv(List<Summary> summaries, java.nio.file.Path file) {
    StringBuilder b = new StringBuilder("source,device,tier,gamma,regime,batch,mixes,geomean_pairs,geomean_triples,geomean_all,min,max\n");
    for (Summary s : summaries) {
      b.append(String.format(java.util.Locale.ROOT, "%s,%s,%s,%s,%s,%s,%d,%.4f,%.4f,%.4f,%.4f,%.4f%n", s.source(), s.device(), s.tier(), gamma(s.gamma()),
          s.regime(), s.regime().equals("batch") ? Integer.toString(s.batch()) : "", s.mixes(), s.pairs(), s.triples(), s.all(), s.min(), s.max()));
    }
    TextFiles.write(file, b.toString());
  }
}
