package org.rampa.examples.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.Segment;
import org.rampa.colocation.VerifiedColocationPlanner;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigGeometry;
import org.rampa.domain.share.MigLayout;
import org.rampa.domain.share.MigProfile;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MigSliceMps;
import org.rampa.domain.share.Whole;
import org.rampa.examples.experiment.ClusterMixes.Cluster;
import org.rampa.heuristics.colocation.ColocationPlanners;
import org.rampa.perf.share.TierMargins;
import org.rampa.solver.colocation.PatternColocationPlanner;

/**
 * E2 (issue 13): co-location planners on 1000-accelerator clusters and batch-oriented demand mixes
 * of 100 … 400 services. Each (cluster, batch regime, seed) draws one mix ({@link ClusterMixes});
 * every planner plans its largest demand scale Z ({@code MAX_SCALE}) on the whole cluster, and —
 * for "GPUs needed" — the fewest GPUs serving the demand exclusive use serves on the whole cluster
 * ({@code MIN_GPUS} at rates × Z(exclusive)). Every plan is checked by {@link ColocationVerifier}: the planners come wrapped in
 * {@link VerifiedColocationPlanner}.
 */
public final class ClusterExperiment {
  private ClusterExperiment() {}

  /** Every planner E2 compares: ours (exact, heuristic, learned) and the baselines. */
  public static final List<String> PLANNERS = List.of("exact", "heuristic", "learned", "exclusive", "even-mps-2", "even-mps-4", "gpu-lets",
      "uniform-mig-1g", "uniform-mig-3g");
  /** Our planners; the rest are baselines. */
  public static final List<String> OURS = List.of("exact", "heuristic", "learned");

  /**
   * A batch regime: every service's batches are the powers of two up to {@code cap}, and a service
   * is small-batch (at most {@link ClusterMixes#SMALL_BATCH}) with probability {@code smallShare}.
   */
  public record Regime(String label, double smallShare, int cap) {
    public static Regime cap(int cap) {
      return new Regime("batch<=" + cap, 0, cap);
    }

    public static Regime small(double share) {
      return new Regime("small=" + share, share, ClusterMixes.LARGE_BATCH);
    }
  }

  /** One mix: the cluster, the regime, the seed and the service count drawn from it; or a user's demand (then regime and seed are labels only). */
  public record Config(Cluster cluster, Regime regime, long seed, int services, List<ClusterMixes.DemandLine> demand) {
    public Config {
      demand = List.copyOf(demand);
    }

    public ColocationProblem problem(ColocationObjective objective) {
      return demand.isEmpty() ? ClusterMixes.problem(cluster, services, regime.smallShare(), regime.cap(), seed, objective)
          : ClusterMixes.problem(cluster, demand, objective);
    }
  }

  /** The regime label of a user's demand file. */
  public static final Regime DEMAND_FILE = new Regime("demand-file", 0, ClusterMixes.LARGE_BATCH);

  /** One configuration per cluster for a user's demand (nothing is drawn, so one seed). */
  public static List<Config> configs(List<Cluster> clusters, List<ClusterMixes.DemandLine> demand) {
    return clusters.stream().map(c -> new Config(c, DEMAND_FILE, 0, demand.size(), demand)).toList();
  }

  /**
   * One planner on one mix. {@code scale} is 0 without a plan; {@code bound} is exact's proven LP
   * bound on Z (NaN when none); {@code gpusNeeded} is -1 when the planner found no fewest-GPU plan.
   */
  public record Row(Config config, String planner, String status, double scale, double bound, double millis, boolean hitLimit, int gpusUsed,
      int gpusNeeded, double neededMillis, int unusableSlices, double idleCompute, int reconfigured, int layouts) {}

  /** The configurations of a sweep: for every cluster, regime and seed, a service count drawn in [min, max] from the seed. */
  public static List<Config> configs(List<Cluster> clusters, List<Regime> regimes, long firstSeed, int seeds, int minServices, int maxServices) {
    List<Config> out = new ArrayList<>();
    for (Cluster c : clusters) {
      for (Regime r : regimes) {
        for (int i = 0; i < seeds; i++) {
          long seed = firstSeed + i;
          int n = minServices + new SplittableRandom(seed ^ 0x5DEECE66DL).nextInt(maxServices - minServices + 1);
          out.add(new Config(c, r, seed, n, List.of()));
        }
      }
    }
    return out;
  }

  /**
   * The solves {@link #run} reports per configuration: one per planner, and with {@code gpusNeeded}
   * one more per planner (reported also where that solve is skipped), so that a progress bar moves
   * with solves of up to the time limit each rather than with whole configurations of minutes.
   */
  public static int solvesPerConfig(List<String> planners, boolean gpusNeeded) {
    return planners.size() * (gpusNeeded ? 2 : 1);
  }

  /**
   * Runs every planner on every configuration, {@code threads} configurations at a time; rows come
   * back in the configurations' order. {@code gpusNeeded} adds the fewest-GPU solves. {@code solved}
   * is told after each solve, from the running thread: {@link #solvesPerConfig} times per configuration.
   * Every planner plans, and is verified, under {@code margins} ({@link ColocationProblem#withMargins}).
   */
  public static List<Row> run(List<Config> configs, List<String> planners, Duration timeLimit, boolean gpusNeeded, TierMargins margins,
      int threads, Runnable solved) {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<List<Row>>> futures = new ArrayList<>();
      for (Config c : configs) {
        futures.add(pool.submit(() -> {
          return runOne(c, planners, timeLimit, gpusNeeded, margins, solved);
        }));
      }
      List<Row> out = new ArrayList<>();
      for (Future<List<Row>> f : futures) {
        out.addAll(f.get());
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }

  static List<Row> runOne(Config config, List<String> planners, Duration timeLimit, boolean gpusNeeded, TierMargins margins, Runnable solved) {
    ColocationProblem scaleProblem = config.problem(ColocationObjective.MAX_SCALE).withMargins(margins);
    Map<String, ColocationResult> results = new LinkedHashMap<>();
    Map<String, Double> millis = new LinkedHashMap<>();
    // exclusive first (its scale fixes the demand of the fewest-GPU solves), the heuristic before
    // exact, whose warm start is the heuristic's plan of this run
    List<String> order = new ArrayList<>(planners);
    for (String first : List.of("heuristic", "exclusive")) {
      if (order.remove(first)) {
        order.add(0, first);
      }
    }
    for (String name : order) {
      long t0 = System.nanoTime();
      ColocationResult r = planner(name, results.get("heuristic")).plan(scaleProblem, timeLimit);
      millis.put(name, (System.nanoTime() - t0) / 1e6);
      results.put(name, r);
      solved.run();
    }
    double exclusiveScale = results.containsKey("exclusive") ? scale(results.get("exclusive")) : 0;
    List<Row> rows = new ArrayList<>();
    for (String name : planners) {
      ColocationResult r = results.get(name);
      int needed = -1;
      double neededMillis = Double.NaN;
      if (gpusNeeded && exclusiveScale > 0) {
        ColocationProblem fixed = demandAt(scaleProblem, exclusiveScale);
        long t0 = System.nanoTime();
        ColocationResult n = planner(name, null).plan(fixed, timeLimit);
        neededMillis = (System.nanoTime() - t0) / 1e6;
        if (n.plan().isPresent()) {
          needed = n.plan().get().gpuCount();
        }
      }
      if (gpusNeeded) {
        solved.run();
      }
      double bound = name.equals("exact") && r.bound().isPresent() ? r.bound().getAsDouble() : Double.NaN;
      ColocationPlan plan = r.plan().orElse(null);
      boolean hitLimit = millis.get(name) >= 0.99 * timeLimit.toNanos() / 1e6;
      rows.add(new Row(config, name, r.status().name(), scale(r), bound, millis.get(name), hitLimit, plan == null ? 0 : plan.gpuCount(), needed,
          neededMillis, plan == null ? 0 : unusableSlices(scaleProblem, plan), plan == null ? Double.NaN : idleCompute(scaleProblem, plan),
          plan == null ? 0 : reconfigured(plan), plan == null ? 0 : layouts(plan)));
    }
    return rows;
  }

  /**
   * The planner {@code name}; exact is warm-started by {@code heuristic} (the heuristic's result on
   * the same problem, when it ran) instead of re-running the heuristic on a tenth of its budget.
   */
  private static ColocationPlanner planner(String name, ColocationResult heuristic) {
    if (!name.equals("exact")) {
      return ColocationPlanners.named(name);
    }
    ColocationPlanner warm = heuristic == null ? ColocationPlanners.named("heuristic") : new ColocationPlanner() {
      @Override
      public String name() {
        return "heuristic";
      }

      @Override
      public ColocationResult plan(ColocationProblem problem, Duration timeLimit) {
        return heuristic;
      }
    };
    return VerifiedColocationPlanner.of(new PatternColocationPlanner(warm));
  }

  private static double scale(ColocationResult r) {
    return r.status().hasPlan() ? r.value().orElseThrow() : 0;
  }

  /** The same mix at rates × {@code scale}, for the fewest GPUs. */
  static ColocationProblem demandAt(ColocationProblem p, double scale) {
    List<ColocationService> services = new ArrayList<>();
    for (ColocationService s : p.services()) {
      services.add(new ColocationService(s.id(), s.model(), s.batches(), s.processCounts(), s.rate() * scale, s.slo(), s.processMemoryBytes(),
          s.weight()));
    }
    return new ColocationProblem(services, p.pools(), p.timeModel(), p.interference(), p.sloRule(), p.admission(), ColocationObjective.MIN_GPUS);
  }

  /**
   * Fragmentation: memory slices of used MIG GPUs that no instance holds and no profile could
   * still be created on at a legal start next to the GPU's instances — capacity that is stranded.
   */
  static int unusableSlices(ColocationProblem problem, ColocationPlan plan) {
    int unusable = 0;
    for (GpuConfiguration g : plan.gpus()) {
      GpuPartitioning part = problem.pool(g.gpuType()).partitioning();
      List<MigSlice> slices = new ArrayList<>();
      for (Segment s : g.segments()) {
        if (s.placement() instanceof MigSlice m) {
          slices.add(m);
        } else if (s.placement() instanceof MigSliceMps m) {
          slices.add(m.slice());
        }
      }
      if (slices.isEmpty() || part.mig().isEmpty()) {
        continue;
      }
      MigGeometry geometry = part.mig().get();
      Set<Integer> held = new HashSet<>();
      for (MigSlice s : slices) {
        int size = geometry.profile(s.profile()).memorySlices();
        for (int k = s.start(); k < s.start() + size; k++) {
          held.add(k);
        }
      }
      Set<Integer> usable = new HashSet<>();
      for (MigProfile p : geometry.profiles()) {
        for (int start : p.allowedStarts()) {
          List<MigSlice> with = new ArrayList<>(slices);
          with.add(new MigSlice(p.name(), start));
          if (MigLayout.check(geometry, with).isEmpty()) {
            for (int k = start; k < start + p.memorySlices(); k++) {
              usable.add(k);
            }
          }
        }
      }
      for (int k = 0; k < geometry.memorySlices(); k++) {
        if (!held.contains(k) && !usable.contains(k)) {
          unusable++;
        }
      }
    }
    return unusable;
  }

  /** Compute no segment holds on the used GPUs, as a fraction of theirs (MIG: SMs outside instances; MPS: unshared fraction). */
  static double idleCompute(ColocationProblem problem, ColocationPlan plan) {
    if (plan.gpus().isEmpty()) {
      return 0;
    }
    double idle = 0;
    for (GpuConfiguration g : plan.gpus()) {
      GpuPartitioning part = problem.pool(g.gpuType()).partitioning();
      double used = 0;
      for (Segment s : g.segments()) {
        used += s.placement().computeFraction(part);
      }
      idle += Math.max(0, 1 - used);
    }
    return idle / plan.gpus().size();
  }

  /** GPUs a cluster in exclusive mode must switch to MIG or MPS mode for the plan (each a reconfiguration, docs/SHARING.md section 1). */
  static int reconfigured(ColocationPlan plan) {
    int n = 0;
    for (GpuConfiguration g : plan.gpus()) {
      if (!(g.segments().size() == 1 && g.segments().get(0).placement() instanceof Whole)) {
        n++;
      }
    }
    return n;
  }

  /** Distinct GPU configurations (type, and per segment the placement kind and size) the operator must set up. */
  static int layouts(ColocationPlan plan) {
    Set<List<String>> distinct = new HashSet<>();
    for (GpuConfiguration g : plan.gpus()) {
      List<String> key = new ArrayList<>();
      key.add(g.gpuType());
      g.segments().stream().map(s -> s.placement().label()).sorted().forEach(key::add);
      distinct.add(key);
    }
    return distinct.size();
  }
}
