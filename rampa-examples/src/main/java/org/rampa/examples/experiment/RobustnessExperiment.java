package org.rampa.examples.experiment;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationPlanner;
import org.rampa.colocation.ColocationProblem;
import org.rampa.examples.experiment.ColocationReplay;
import org.rampa.colocation.ColocationResult;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuPool;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.rampa.examples.experiment.ReplayOutcome;
import org.rampa.colocation.SloRule;
import org.rampa.domain.Invalid;
import org.rampa.domain.Model;
import org.rampa.domain.share.Whole;
import org.rampa.perf.share.SharedStage;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.MpsShare;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.perf.share.LinearInterference;
import org.rampa.examples.experiment.PerturbedShareTimeModel;
import org.rampa.examples.experiment.PerturbedShareTimeModel.LawFactors;
import org.rampa.examples.experiment.PerturbedShareTimeModel.Series;
import org.rampa.perf.share.ScaledInterference;
import org.rampa.perf.share.ShareSeries;
import org.rampa.perf.share.ShareTimeModel;
import org.rampa.perf.share.TierMargins;

/**
 * VastPipe experiment E3 (robustness): every planner plans a seeded demand mix on A100-80GBs (for
 * the fewest GPUs, or the largest demand scale on a fixed cluster) against the nominal model
 * (analytic share times with linear interference γ = 0.05, or ParvaGPU's measured tables; {@link
 * Family}), optionally with a safety margin, and every plan is then replayed by {@link
 * ColocationReplay} under "truths" the
 * planner never saw: the share law's A and C of every series (model × placement kind) multiplied by
 * independent factors in [0.8, 1.2], every service's interference excess α − 1 by a factor in
 * [0.9, 1.1], and γ doubled. The replay is independent of the planners: each truth is a problem with
 * another time model and interference model, judged by the co-location verifier's own rules.
 *
 * <p>Every (seed, planner, margin) plan meets the same truths (common random numbers), so the
 * margins and planners are compared on identical perturbations; results do not depend on the
 * number of threads (time-limited exact solves aside).
 */
public final class RobustnessExperiment {

  /** The GPU type of every mix: MIG and MPS, so both isolated and contended planners apply. */
  public static final String GPU_TYPE = "A100-SXM4-80GB";

  /** Catalog models a mix draws from (the analytic tier answers every share of them). */
  public static final List<String> MODELS = List.of("resnet50", "vgg16", "mobilenetv2", "bert-base", "gpt2-small", "vit-b16");

  /** Range of every law factor (A and C) and of the interference-excess factor. */
  public static final double LAW_SPREAD = 0.20;
  public static final double INTERFERENCE_SPREAD = 0.10;

  /** Nominal interference (docs/SHARING.md section 3's default) and the stressed multiple of it. */
  public static final double GAMMA = LinearInterference.DEFAULT_GAMMA;
  public static final double GAMMA_MULTIPLE = 2;

  /** How the safety margin m tightens what a planner plans against. */
  public enum MarginKind {
    /** Every batch time inflated by 1 + m: covers both the latency rule and throughput. */
    TIMES,
    /** The SLO rule's fraction times 1 − m: latency only, throughput is planned at nominal. */
    SLO,
    /**
     * Every batch time times 1 + m × the default margin of the tier that answered it ({@link
     * TierMargins#defaults()}, from each tier's measured error): m = 1 is what {@code colocate}
     * plans with by default.
     */
    TIERS;

    /** The largest m: a fraction below 1 for times and SLO, a multiple of the default margins up to 10 for tiers. */
    public double largest() {
      return this == TIERS ? 10 : 1;
    }

    public static MarginKind parse(String field, String value) {
      for (MarginKind k : values()) {
        if (k.name().equalsIgnoreCase(value)) {
          return k;
        }
      }
      throw Invalid.value(field, value, "is not a margin kind", "use times, slo or tiers");
    }

    /** The name the command line takes. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Where a seed's demand mix and its nominal model come from. */
  public enum Family {
    /**
     * Catalog models on the calibrated analytic tier, linear interference: MIG and MPS planners
     * both apply, but the nominal model is itself modelled.
     */
    ANALYTIC,
    /**
     * ParvaGPU's measured models and tables (measured tier only, MIG with MPS processes inside an
     * instance): the laws are fitted through real measurements, but no MPS-share time exists, so
     * the MPS baselines find no plan.
     */
    PARVAGPU;

    public static Family parse(String field, String value) {
      for (Family f : values()) {
        if (f.name().equalsIgnoreCase(value)) {
          return f;
        }
      }
      throw Invalid.value(field, value, "is not a mix family", "use analytic or parvagpu");
    }

    /** The name the command line takes. */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** The planners that have plans on this family: exact, the heuristic, exclusive use and MPS or MIG baselines. */
    public List<String> defaultPlanners() {
      return this == ANALYTIC
          ? List.of("heuristic", "exact", "exclusive", "even-mps-2", "gpu-lets")
          : List.of("heuristic", "exact", "exclusive", "uniform-mig-1g", "uniform-mig-3g");
    }
  }

  /** The perturbed truths each plan is replayed under. */
  public enum Scenario {
    /** A and C ± 20 % per series, α − 1 ± 10 % per service, γ nominal. */
    PERTURBED("perturbed", true, 1),
    /** The nominal law, γ doubled. */
    GAMMA_X2("gamma-x2", false, GAMMA_MULTIPLE),
    /** Both: the perturbed draws with γ doubled. */
    PERTURBED_GAMMA_X2("perturbed+gamma-x2", true, GAMMA_MULTIPLE),
    /**
     * The model's own error: every series' times times a ratio drawn from the measured error of the
     * tier that answers it ({@link ModelErrorTimeModel}); interference nominal (no measured error of α
     * is at hand).
     */
    MODEL_ERROR("model-error", true, 1);

    public final String label;
    final boolean drawn;
    final double interferenceScale;

    Scenario(String label, boolean drawn, double interferenceScale) {
      this.label = label;
      this.drawn = drawn;
      this.interferenceScale = interferenceScale;
    }
  }

  /**
   * @param family where the demand mixes and the nominal model come from
   * @param objective fewest GPUs for the whole demand, or the largest demand scale on {@code clusterGpus}
   * @param clusterGpus A100-80GBs in the cluster
   * @param firstSeed seeds are firstSeed … firstSeed + seeds − 1; a seed fixes the demand mix and the truths
   * @param draws perturbed truths per seed (the γ × 2 scenario has one: it draws nothing)
   * @param margins safety margins m in [0, 1), kept sorted and distinct
   * @param planners co-location planner names, "exact" for the pattern MILP
   * @param timeLimit per planner call
   */
  public record Settings(Family family, ColocationObjective objective, int clusterGpus, long firstSeed, int seeds, int draws, List<Double> margins, MarginKind marginKind,
      List<String> planners, Duration timeLimit, int threads) {
    public Settings {
      Objects.requireNonNull(family, "family");
      if (objective != ColocationObjective.MIN_GPUS && objective != ColocationObjective.MAX_SCALE) {
        throw Invalid.value("objective", objective, "E3 measures the fewest GPUs or the largest demand scale", "use MIN_GPUS or MAX_SCALE");
      }
      if (clusterGpus < 1) {
        throw Invalid.value("clusterGpus", clusterGpus, "must be >= 1");
      }
      Objects.requireNonNull(marginKind, "marginKind");
      margins = margins.stream().distinct().sorted().toList();
      planners = List.copyOf(planners);
      if (seeds < 1) {
        throw Invalid.value("seeds", seeds, "must be >= 1");
      }
      if (draws < 1) {
        throw Invalid.value("draws", draws, "must be >= 1");
      }
      if (threads < 1) {
        throw Invalid.value("threads", threads, "must be >= 1");
      }
      if (margins.isEmpty() || planners.isEmpty()) {
        throw Invalid.value("margins/planners", margins + " / " + planners, "must not be empty");
      }
      for (double m : margins) {
        if (!(m >= 0 && (m < 1 || (marginKind == MarginKind.TIERS && m <= marginKind.largest())))) {
          throw Invalid.value("margins", m, marginKind == MarginKind.TIERS ? "must lie in [0, 10]" : "must lie in [0, 1)",
              marginKind == MarginKind.TIERS ? "a multiple of the default margins: 1 for the defaults" : "a margin is a fraction: 0.1 for 10 %");
        }
      }
    }
  }

  /** One planner call: the plan's status, GPUs, claimed demand scale and planning time. */
  public record PlanRow(long seed, String planner, double margin, String status, int gpus, int mpsGpus, double scale, double planSeconds,
      String reason) {
    public boolean planned() {
      return gpus > 0;
    }
  }

  /** One replay of one plan under one truth. */
  public record ReplayRow(long seed, String planner, double margin, String scenario, int draw, int gpus, double scale, ReplayOutcome outcome) {}

  /** Per planner, margin and scenario: means over seeds (each seed's value the mean over its draws) with 95 % intervals. */
  public record Summary(String planner, double margin, String scenario, int seedsPlanned, Interval gpus, Interval scale, Interval brokenPlans,
      Interval lateSegments, Interval underservedServices, Interval servedFraction, double worstSloUse) {}

  /** Every planner call and every replay, in task order (seed, planner, margin; then scenario and draw). */
  public record Result(List<PlanRow> plans, List<ReplayRow> replays) {}

  private final Settings settings;
  private final Map<String, Supplier<ColocationPlanner>> planners;

  /** {@code planners} builds a fresh planner per call by name (planners may keep state per instance). */
  public RobustnessExperiment(Settings settings, Map<String, Supplier<ColocationPlanner>> planners) {
    this.settings = settings;
    this.planners = Map.copyOf(planners);
    for (String name : settings.planners()) {
      if (!planners.containsKey(name)) {
        throw Invalid.value("planners", name, "is not a known co-location planner", "use one of " + planners.keySet().stream().sorted().toList());
      }
    }
  }

  /** Planner calls the experiment makes: one per seed, planner and margin (the progress bar's maximum). */
  public long tasks() {
    return (long) settings.seeds() * settings.planners().size() * settings.margins().size();
  }

  /**
   * The demand mix of {@code seed}: three to five catalog models, batches 1 … 32, one process per
   * segment (the analytic tier gives each process of an instance the whole instance), on 1000
   * A100-80GBs. Rates and SLOs are drawn relative to each model's nominal speed, so every mix is
   * tight somewhere: a rate of 2 … 20 whole GPUs' throughput at batch 8, and an SLO whose rule
   * (ParvaGPU's, 0.45 × SLO per batch) admits 1.5 … 12 times the whole GPU's batch-1 time.
   */
  public static ColocationProblem mix(Family family, long seed) {
    return family == Family.ANALYTIC ? analyticMix(seed) : parvaGpuMix(seed);
  }

  private static ColocationProblem analyticMix(long seed) {
    SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 1);
    List<String> models = new ArrayList<>(MODELS);
    for (int i = models.size() - 1; i > 0; i--) {
      Collections.swap(models, i, r.nextInt(i + 1));
    }
    GpuPool pool = new GpuPool(GpuCatalog.standard().type(GPU_TYPE), SharingCatalog.standard().partitioning(GPU_TYPE), 1000);
    ShareTimeModel times = AnalyticShareTimeModel.calibrated();
    SloRule rule = SloRule.parvaGpu();
    List<ColocationService> services = new ArrayList<>();
    for (String m : models.subList(0, 3 + r.nextInt(3))) {
      Model model = ModelCatalog.model(m);
      double batch1 = wholeGpuSeconds(times, model, 1, pool);
      double batch8 = wholeGpuSeconds(times, model, 8, pool);
      double rate = Math.rint((2 + 18 * r.nextDouble()) * 8 / batch8);
      double sloSeconds = (1.5 + 10.5 * r.nextDouble()) * batch1 / rule.latencyFraction();
      services.add(new ColocationService(m, model, List.of(1, 2, 4, 8, 16, 32), List.of(1), rate,
          Duration.ofNanos((long) (sloSeconds * 1e9)), 1L << 30, 1));
    }
    return new ColocationProblem(services, List.of(pool), times, new LinearInterference(GAMMA), rule, MpsAdmission.strict(),
        ColocationObjective.MIN_GPUS);
  }

  /**
   * A ParvaGPU mix: one of its six published scenarios (the seed picks it), three to five of that
   * scenario's services with its SLOs, each rate the published one times 0.5 … 2, on 1000
   * A100-80GBs, measured tier only, ParvaGPU's SLO rule and search space.
   */
  private static ColocationProblem parvaGpuMix(long seed) {
    SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + 2);
    ColocationProblem scenario = ParvaGpuScenarios.scenario(1 + r.nextInt(ParvaGpuScenarios.SCENARIOS), 1000, ColocationObjective.MIN_GPUS);
    List<ColocationService> pool = new ArrayList<>(scenario.services());
    for (int i = pool.size() - 1; i > 0; i--) {
      Collections.swap(pool, i, r.nextInt(i + 1));
    }
    List<ColocationService> services = new ArrayList<>();
    for (ColocationService s : pool.subList(0, Math.min(pool.size(), 3 + r.nextInt(3)))) {
      services.add(ParvaGpuScenarios.service(s.id(), s.batches(), Math.rint(s.rate() * (0.5 + 1.5 * r.nextDouble())), s.slo()));
    }
    return ParvaGpuScenarios.problem(services, 1000, ColocationObjective.MIN_GPUS);
  }

  private static double wholeGpuSeconds(ShareTimeModel times, Model model, int batch, GpuPool pool) {
    return times.seconds(SharedStage.wholeModel(model, batch, pool.type(), pool.partitioning(), new Whole())).orElseThrow();
  }

  /** {@code mix} on a cluster of {@code gpus} of its GPU type, for {@code objective}. */
  static ColocationProblem onCluster(ColocationProblem mix, ColocationObjective objective, int gpus) {
    List<GpuPool> pools = mix.pools().stream().map(p -> new GpuPool(p.type(), p.partitioning(), gpus)).toList();
    return new ColocationProblem(mix.services(), pools, mix.timeModel(), mix.interference(), mix.sloRule(), mix.admission(), objective);
  }

  /** What a planner plans against under margin {@code m}: inflated times or a tightened SLO rule. */
  static ColocationProblem withMargin(ColocationProblem nominal, double m, MarginKind kind) {
    if (m == 0) {
      return nominal;
    }
    return switch (kind) {
      case TIMES -> {
        ShareTimeModel base = nominal.timeModel();
        ShareTimeModel inflated = stage -> {
          OptionalDouble t = base.seconds(stage);
          return t.isPresent() ? OptionalDouble.of(t.getAsDouble() * (1 + m)) : t;
        };
        yield new ColocationProblem(nominal.services(), nominal.pools(), inflated, nominal.interference(), nominal.sloRule(),
            nominal.admission(), nominal.objective());
      }
      case SLO -> new ColocationProblem(nominal.services(), nominal.pools(), nominal.timeModel(), nominal.interference(),
          new SloRule(nominal.sloRule().latencyFraction() * (1 - m)), nominal.admission(), nominal.objective());
      case TIERS -> nominal.withMargins(TierMargins.defaults().scaled(m));
    };
  }

  /**
   * The truth of draw {@code draw} of {@code seed} under {@code scenario}: factors drawn from a
   * stream that depends on the seed and draw only, in a fixed order (services as listed, MIG then
   * MPS series, then interference), so every planner and margin meets the same truth and the
   * perturbed and perturbed + γ × 2 scenarios share their law draws.
   */
  static ColocationProblem truth(ColocationProblem nominal, PerturbedShareTimeModel.Laws laws, long seed, int draw, Scenario scenario) {
    if (scenario == Scenario.MODEL_ERROR) {
      // its own stream, so the other scenarios' draws (and today's numbers) are unchanged
      SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ (draw + 1) * 0x165667B19E3779F9L);
      Map<Series, Double> levels = new LinkedHashMap<>();
      for (ColocationService s : nominal.services()) {
        for (ShareSeries.Kind kind : ShareSeries.Kind.values()) {
          levels.put(new Series(s.model().name(), kind), r.nextDouble());
        }
      }
      return new ColocationProblem(nominal.services(), nominal.pools(), new ModelErrorTimeModel(nominal.timeModel(), levels), nominal.interference(),
          nominal.sloRule(), nominal.admission(), nominal.objective());
    }
    Map<Series, LawFactors> law = new LinkedHashMap<>();
    Map<String, Double> interference = new LinkedHashMap<>();
    if (scenario.drawn) {
      SplittableRandom r = new SplittableRandom(seed * 0x9E3779B97F4A7C15L ^ (draw + 1) * 0xC2B2AE3D27D4EB4FL);
      for (ColocationService s : nominal.services()) {
        for (ShareSeries.Kind kind : ShareSeries.Kind.values()) {
          law.put(new Series(s.model().name(), kind), new LawFactors(uniform(r, LAW_SPREAD), uniform(r, LAW_SPREAD)));
        }
      }
      for (ColocationService s : nominal.services()) {
        interference.put(s.id(), uniform(r, INTERFERENCE_SPREAD));
      }
    }
    InterferenceModel alpha = new ScaledInterference(nominal.interference(), interference, scenario.interferenceScale);
    return new ColocationProblem(nominal.services(), nominal.pools(), laws.perturbed(law), alpha, nominal.sloRule(), nominal.admission(),
        nominal.objective());
  }

  private static double uniform(SplittableRandom r, double spread) {
    return 1 - spread + 2 * spread * r.nextDouble();
  }

  /** Plans and replays everything; {@code progress} runs once per planner call. */
  public Result run(Runnable progress) {
    List<Callable<List<Object>>> tasks = new ArrayList<>();
    for (int i = 0; i < settings.seeds(); i++) {
      long seed = settings.firstSeed() + i;
      // The nominal model remembers its answers and its laws, shared by every planner, margin and truth of the seed.
      ColocationProblem nominal = onCluster(mix(settings.family(), seed), settings.objective(), settings.clusterGpus()).memoized();
      PerturbedShareTimeModel.Laws laws = PerturbedShareTimeModel.over(nominal.timeModel());
      for (String planner : settings.planners()) {
        for (double m : settings.margins()) {
          tasks.add(() -> planAndReplay(nominal, laws, seed, planner, m));
        }
      }
    }
    ExecutorService pool = Executors.newFixedThreadPool(settings.threads(), r -> {
      Thread t = new Thread(r, "rampa-e3");
      t.setDaemon(true);
      return t;
    });
    try {
      // Exact solves first, so no core idles at the end waiting on one.
      List<Future<List<Object>>> futures = new ArrayList<>(Collections.nCopies(tasks.size(), null));
      int perSeed = settings.planners().size() * settings.margins().size();
      for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < tasks.size(); i++) {
          boolean exact = settings.planners().get((i % perSeed) / settings.margins().size()).equals("exact");
          if (exact == (pass == 0)) {
            Callable<List<Object>> task = tasks.get(i);
            futures.set(i, pool.submit(() -> {
              List<Object> out = task.call();
              progress.run();
              return out;
            }));
          }
        }
      }
      List<PlanRow> plans = new ArrayList<>();
      List<ReplayRow> replays = new ArrayList<>();
      for (Future<List<Object>> f : futures) {
        for (Object o : await(f)) {
          if (o instanceof PlanRow p) {
            plans.add(p);
          } else {
            replays.add((ReplayRow) o);
          }
        }
      }
      return new Result(plans, replays);
    } finally {
      pool.shutdownNow();
    }
  }

  private List<Object> planAndReplay(ColocationProblem nominal, PerturbedShareTimeModel.Laws laws, long seed, String name, double m) {
    ColocationProblem planned = withMargin(nominal, m, settings.marginKind());
    long t0 = System.nanoTime();
    ColocationResult result = planners.get(name).get().plan(planned, settings.timeLimit());
    double seconds = (System.nanoTime() - t0) / 1e9;
    List<Object> out = new ArrayList<>();
    if (result.plan().isEmpty()) {
      out.add(new PlanRow(seed, name, m, result.status().name(), 0, 0, 0, seconds, result.reason()));
      return out;
    }
    ColocationPlan plan = result.plan().get();
    // A plan is verified under the margin it was planned under, and, since a margin only tightens, under the nominal model too.
    ColocationVerifier.requireValid(planned, plan, name + " (margin " + m + ")");
    ColocationVerifier.requireValid(nominal, plan, name + " (margin " + m + ", nominal)");
    int mpsGpus = (int) plan.gpus().stream().filter(g -> g.segments().stream().anyMatch(s -> s.placement() instanceof MpsShare)).count();
    out.add(new PlanRow(seed, name, m, result.status().name(), plan.gpuCount(), mpsGpus, plan.scale(), seconds, ""));
    for (Scenario scenario : Scenario.values()) {
      int draws = scenario.drawn ? settings.draws() : 1;
      for (int d = 0; d < draws; d++) {
        ReplayOutcome o = ColocationReplay.replay(truth(nominal, laws, seed, d, scenario), plan);
        out.add(new ReplayRow(seed, name, m, scenario.label, d, plan.gpuCount(), plan.scale(), o));
      }
    }
    return out;
  }

  private static <T> T await(Future<T> future) {
    try {
      return future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the experiment", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /**
   * Per planner, margin and scenario, over the seeds where the planner had a plan at that margin:
   * GPUs and the claimed demand scale, the share of replays where the plan breaks any verifier rule, the share of late segments
   * and of under-served services, the share of the demand served in time (each seed's value is the
   * mean over its draws; intervals are over seeds), and the worst SLO use seen in any replay.
   */
  public static List<Summary> summarise(Result result, Settings settings) {
    List<Summary> out = new ArrayList<>();
    for (String planner : settings.planners()) {
      for (double m : settings.margins()) {
        for (Scenario scenario : Scenario.values()) {
          List<double[]> perSeed = new ArrayList<>();
          double worst = 0;
          for (int i = 0; i < settings.seeds(); i++) {
            long seed = settings.firstSeed() + i;
            List<ReplayRow> rows = result.replays().stream()
                .filter(r -> r.seed() == seed && r.planner().equals(planner) && r.margin() == m && r.scenario().equals(scenario.label)).toList();
            if (rows.isEmpty()) {
              continue;
            }
            double[] v = new double[6];
            for (ReplayRow r : rows) {
              ReplayOutcome o = r.outcome();
              v[0] = r.gpus();
              v[5] = r.scale();
              v[1] += o.holds() ? 0 : 1;
              v[2] += (double) o.lateSegments() / o.segments();
              v[3] += (double) o.underservedServices() / o.services();
              v[4] += o.servedFraction();
              worst = Math.max(worst, o.worstSloUse());
            }
            for (int k = 1; k < 5; k++) {
              v[k] /= rows.size();
            }
            perSeed.add(v);
          }
          if (perSeed.isEmpty()) {
            out.add(new Summary(planner, m, scenario.label, 0, null, null, null, null, null, null, Double.NaN));
            continue;
          }
          out.add(new Summary(planner, m, scenario.label, perSeed.size(), column(perSeed, 0), column(perSeed, 5), column(perSeed, 1), column(perSeed, 2),
              column(perSeed, 3), column(perSeed, 4), worst));
        }
      }
    }
    return out;
  }

  /** Column 0 (GPUs) and 5 (scale) are amounts, 1 to 4 shares of replays, segments or demand: proportions in [0, 1]. */
  private static Interval column(List<double[]> rows, int k) {
    double[] values = rows.stream().mapToDouble(v -> v[k]).toArray();
    return k == 0 || k == 5 ? Interval.amount(values) : Interval.proportion(values);
  }

  /** e3-plans.csv: one row per planner call. */
  public static void writePlans(Result result, Path file) {
    write(file, w -> {
      w.println("seed,planner,margin,status,gpus,mps_gpus,scale,plan_seconds,reason");
      for (PlanRow p : result.plans()) {
        w.printf(Locale.ROOT, "%d,%s,%.3f,%s,%d,%d,%.5f,%.3f,%s%n", p.seed(), p.planner(), p.margin(), p.status(), p.gpus(), p.mpsGpus(),
            p.scale(), p.planSeconds(), quote(p.reason()));
      }
    });
  }

  /** e3-replays.csv: one row per plan and truth, with the seed and draw that reproduce it. */
  public static void writeReplays(Result result, Path file) {
    write(file, w -> {
      w.println("seed,planner,margin,scenario,draw,gpus,scale,segments,late_segments,services,underserved_services,demand,served_in_time,"
          + "served_fraction,worst_slo_use,holds,first_violation");
      for (ReplayRow r : result.replays()) {
        ReplayOutcome o = r.outcome();
        w.printf(Locale.ROOT, "%d,%s,%.3f,%s,%d,%d,%.5f,%d,%d,%d,%d,%.3f,%.3f,%.5f,%.5f,%s,%s%n", r.seed(), r.planner(), r.margin(),
            r.scenario(), r.draw(), r.gpus(), r.scale(), o.segments(), o.lateSegments(), o.services(), o.underservedServices(), o.demand(), o.servedInTime(),
            o.servedFraction(), o.worstSloUse(), o.holds(), quote(o.violations().isEmpty() ? "" : o.violations().get(0).message()));
      }
    });
  }

  /** e3-summary.csv: the summaries, each interval as mean, low and high. */
  public static void writeSummary(List<Summary> summaries, Path file) {
    write(file, w -> {
      w.println("planner,margin,scenario,seeds_planned,gpus_mean,gpus_low,gpus_high,scale_mean,scale_low,scale_high,broken_plans_mean,broken_plans_low,broken_plans_high,"
          + "late_segments_mean,late_segments_low,late_segments_high,underserved_mean,underserved_low,underserved_high,"
          + "served_fraction_mean,served_fraction_low,served_fraction_high,worst_slo_use");
      for (Summary s : summaries) {
        if (s.seedsPlanned() == 0) {
          w.printf(Locale.ROOT, "%s,%.3f,%s,0,,,,,,,,,,,,,,,,,,,%n", s.planner(), s.margin(), s.scenario());
          continue;
        }
        w.printf(Locale.ROOT, "%s,%.3f,%s,%d,%s,%s,%s,%s,%s,%s,%.4f%n", s.planner(), s.margin(), s.scenario(), s.seedsPlanned(), triple(s.gpus()),
            triple(s.scale()), triple(s.brokenPlans()), triple(s.lateSegments()), triple(s.underservedServices()), triple(s.servedFraction()), s.worstSloUse());
      }
    });
  }

  private static String triple(Interval i) {
    return String.format(Locale.ROOT, "%.4f,%.4f,%.4f", i.mean(), i.low(), i.high());
  }

  private static String quote(String s) {
    return "\"" + s.replace("\"", "\"\"").replace('\n', ' ') + "\"";
  }

  private static void write(Path file, Consumer<PrintWriter> body) {
    try (PrintWriter w = new PrintWriter(Files.newBufferedWriter(file))) {
      body.accept(w);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
