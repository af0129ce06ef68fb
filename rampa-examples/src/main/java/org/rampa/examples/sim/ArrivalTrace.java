package org.rampa.examples.sim;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import org.rampa.domain.Invalid;
import org.rampa.heuristics.importance.WorkloadForecast;
import org.rampa.json.InputFiles;

/** A sequence of arrivals: generated (Poisson arrivals, exponential lifetimes) or replayed from CSV. */
public final class ArrivalTrace {

  private static final String HEADER = "arrival_s,class,lifetime_s";

  /** At most this many arrivals per trace: each costs a planning decision and a record. */
  public static final int MAX_ARRIVALS = 1_000_000;

  /** Times (arrival, lifetime) at most this many seconds, about 3 years: larger is a typo, and sums stay finite. */
  public static final double MAX_SECONDS = 1e8;

  private final List<Arrival> arrivals;

  public ArrivalTrace(List<Arrival> arrivals) {
    this.arrivals = List.copyOf(arrivals);
  }

  public List<Arrival> arrivals() {
    return arrivals;
  }

  /**
   * {@code count} arrivals at {@code ratePerSecond} (Poisson) with exponential lifetimes of mean
   * {@code meanLifetimeSeconds}, classes drawn from {@code workload}. Same seed, same trace.
   */
  public static ArrivalTrace poisson(WorkloadForecast workload, double ratePerSecond, double meanLifetimeSeconds, int count, long seed) {
    Invalid.requireFinitePositive("ratePerSecond", ratePerSecond);
    Invalid.requireFinitePositive("meanLifetimeSeconds", meanLifetimeSeconds);
    if (count < 0 || count > MAX_ARRIVALS) {
      throw Invalid.value("count", count, "must lie in [0, " + MAX_ARRIVALS + "]");
    }
    SplittableRandom random = new SplittableRandom(seed);
    List<Arrival> out = new ArrayList<>(count);
    double t = 0;
    for (int i = 0; i < count; i++) {
      t += exponential(random, 1 / ratePerSecond);
      out.add(new Arrival(i, t, workload.sampleIndex(random), exponential(random, meanLifetimeSeconds)));
    }
    return new ArrivalTrace(out);
  }

  private static double exponential(SplittableRandom random, double mean) {
    return -mean * Math.log(1 - random.nextDouble());
  }

  /** Arrival rate × mean lifetime: the mean number of services the trace would keep running. */
  public double offeredLoad() {
    if (arrivals.isEmpty()) {
      return 0;
    }
    double span = arrivals.get(arrivals.size() - 1).timeSeconds();
    double meanLifetime = arrivals.stream().mapToDouble(Arrival::lifetimeSeconds).average().orElse(0);
    return span > 0 ? arrivals.size() / span * meanLifetime : 0;
  }

  public void write(Path file) {
    StringBuilder b = new StringBuilder(HEADER).append('\n');
    for (Arrival a : arrivals) {
      b.append(String.format(Locale.ROOT, "%.6f,%d,%.6f%n", a.timeSeconds(), a.classIndex(), a.lifetimeSeconds()));
    }
    try {
      Files.writeString(file, b);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write trace " + file, e);
    }
  }

  /** A number field of a trace line; NaN and Infinity are refused with the bounds, by the caller. */
  private static double number(String where, String field, String text) {
    try {
      return Double.parseDouble(text.trim());
    } catch (NumberFormatException e) {
      throw Invalid.value(where + " " + field, text.trim(), "is not a number");
    }
  }

  /** Reads a trace written by {@link #write} (or by hand): arrival time, class index, lifetime. */
  public static ArrivalTrace read(Path file, int classCount) {
    List<String> lines = InputFiles.readText(file).lines().toList();
    if (lines.size() - 1 > MAX_ARRIVALS) {
      throw Invalid.value(file + ": arrivals", lines.size() - 1, "must be at most " + MAX_ARRIVALS);
    }
    if (lines.isEmpty() || !lines.get(0).trim().equals(HEADER)) {
      throw Invalid.value(file + ": header", lines.isEmpty() ? "(empty file)" : lines.get(0), "must be " + HEADER);
    }
    List<Arrival> out = new ArrayList<>();
    double previous = 0;
    for (int i = 1; i < lines.size(); i++) {
      if (lines.get(i).isBlank()) {
        continue;
      }
      String[] f = lines.get(i).split(",");
      String where = file + ": line " + (i + 1);
      if (f.length != 3) {
        throw Invalid.value(where, lines.get(i), "needs 3 fields: " + HEADER);
      }
      double t = number(where, "arrival_s", f[0]);
      if (!(t >= 0 && t <= MAX_SECONDS)) {
        throw Invalid.value(where + " arrival_s", t, "must lie in [0, " + MAX_SECONDS + "]");
      }
      if (t < previous) {
        throw Invalid.value(where + " arrival_s", t, "arrivals must be in time order");
      }
      int c;
      try {
        c = Integer.parseInt(f[1].trim());
      } catch (NumberFormatException e) {
        throw Invalid.value(where + " class", f[1].trim(), "must be an integer class index");
      }
      if (c < 0 || c >= classCount) {
        throw Invalid.value(where + " class", c, "must lie in [0, " + classCount + ")");
      }
      double life = number(where, "lifetime_s", f[2]);
      if (!(life > 0 && life <= MAX_SECONDS)) {
        throw Invalid.value(where + " lifetime_s", life, "must lie in (0, " + MAX_SECONDS + "]");
      }
      out.add(new Arrival(out.size(), t, c, life));
      previous = t;
    }
    return new ArrivalTrace(out);
  }
}
