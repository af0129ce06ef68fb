package org.rampa.examples.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.rampa.colocation.SloRule;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;
import org.rampa.domain.Model;
import org.rampa.domain.ServingRuntime;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.FittedShareTimeModel;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.perf.share.MeasuredShareTable;
import org.rampa.perf.share.ShareSeries;
import org.rampa.perf.share.ShareTier;
import org.rampa.perf.share.ShareTimeModel;
import org.rampa.perf.share.SharedStage;

/**
 * E2's clusters and seeded batch-oriented demand mixes (issue 13). A mix has 100 … 400 services,
 * each one model drawn uniformly from the cluster's family, a rate drawn log-normally around what
 * the model serves at batch 1, an SLO that is one of ParvaGPU's published SLO-to-latency ratios
 * times the model's own batch-1 latency, and a batch menu: powers of two up to a cap, where a
 * service is "small-batch" (cap {@link #SMALL_BATCH}) with the mix's small-batch probability.
 *
 * <p>Clusters (every one 250 nodes × 4 = 1000 accelerators):
 * <ul>
 *   <li>{@link Cluster#A100}: A100-SXM4-80GB (MIG + MPS). ParvaGPU's eleven models on its measured
 *       MIG tables (one to three processes per instance), LLaMA-7B prefill and decode (512 tokens)
 *       on MuxServe's measured MPS table. What neither measured: MPS shares of ParvaGPU's models
 *       (the law {@code A/s + C} fitted to its one-process MIG series, read at the share's SM
 *       fraction: MODELLED) and MIG instances of LLaMA (the analytic tier on LLaMA-2-7B's layers,
 *       the same architecture: MODELLED).</li>
 *   <li>{@link Cluster#HETERO}: 250 each of A100-SXM4-80GB and H100-SXM5-80GB (MIG + MPS), L4 and
 *       V100-SXM2-32GB (MPS only); catalog models (the four of ParvaGPU's that the catalog has,
 *       ViT-B/16, LLaMA-2-7B prefill and decode), every time from the calibrated analytic tier
 *       (MODELLED).</li>
 *   <li>{@link Cluster#NPU}: 1000 of E1's modelled NPU-8C-64GB ({@link OneGpuShareExperiment#npu()}:
 *       8 AI cores, hard partition templates of 1, 2, 4 and 8 cores, no MPS), the catalog models of
 *       {@link Cluster#HETERO} on the same calibrated analytic tier (MODELLED: nothing about this
 *       type is measured).</li>
 * </ul>
 */
public final class ClusterMixes {
  private ClusterMixes() {}

  /** The largest batch of a small-batch service. */
  public static final int SMALL_BATCH = 2;
  /** ParvaGPU's largest searched batch, the cap of every other service. */
  public static final int LARGE_BATCH = 128;
  public static final int NODES = 250;
  public static final int PER_NODE = 4;

  private static final double RATE_SIGMA = 1.0;
  private static final long GIB = 1L << 30;
  /** LLaMA-7B's FP16 weights (13.5 GB) and a KV cache for a few 512-token sequences. */
  private static final long LLAMA_PROCESS_BYTES = 16 * GIB;
  /** Catalog CNNs and encoders: weights plus activations of a large batch, a rounded reservation. */
  private static final long SMALL_MODEL_PROCESS_BYTES = 2 * GIB;

  /**
   * A cluster of 1000 accelerators (or a user's pools): a label, and for a user's cluster its pools
   * (catalog types, analytic tier, the catalog model family of {@link #HETERO}).
   */
  public record Cluster(String label, List<GpuPool> customPools) {
    public static final Cluster A100 = new Cluster("a100", List.of());
    public static final Cluster HETERO = new Cluster("hetero", List.of());
    public static final Cluster NPU = new Cluster("npu", List.of());

    public Cluster {
      Invalid.requireNonBlank("cluster", label);
      customPools = List.copyOf(customPools);
    }

    public static Cluster of(String label) {
      for (Cluster c : List.of(A100, HETERO, NPU)) {
        if (c.label.equals(label)) {
          return c;
        }
      }
      throw Invalid.value("--cluster", label, "is not a cluster preset", "use a100, hetero or npu, or --cluster-file");
    }

    /** A user's cluster: catalog GPU types with counts, every time from the analytic tier. */
    public static Cluster custom(String label, List<GpuPool> pools) {
      if (pools.isEmpty()) {
        throw Invalid.value("cluster.pools", pools, "must not be empty", "list at least one gpu_type,count line");
      }
      return new Cluster(label, pools);
    }
  }

  /** One service of a user's demand file: a model of the cluster's family, its rate, SLO and largest batch. */
  public record DemandLine(String model, double rate, Duration slo, int maxBatch) {}

  /** LLaMA-7B's phases as MuxServe names its series, with LLaMA-2-7B's layers for the analytic tier. */
  static final List<String> LLAMA = List.of("llama-7b-prefill-512", "llama-7b-decode-512");
  static final List<String> HETERO_MODELS = List.of("resnet50", "vgg16", "mobilenetv2", "bert-base", "vit-b16", "llama2-7b-prefill-512",
      "llama2-7b-decode-512");
  static final List<String> HETERO_TYPES = List.of("A100-SXM4-80GB", "H100-SXM5-80GB", "L4", "V100-SXM2-32GB");

  private static final Map<String, Family> FAMILIES = new ConcurrentHashMap<>();

  /** Models, pools and time model of one cluster type, built once (the fitted laws take a while). */
  private record Family(List<String> modelNames, Map<String, Model> models, List<GpuPool> pools, ShareTimeModel timeModel,
      Map<String, Double> batchOneSeconds, double[] sloRatios) {}

  /**
   * True for a cluster every time of which comes from the analytic tier (the hetero and npu presets,
   * a user's cluster): its results are MODELLED. The a100 preset's MIG times are ParvaGPU's measurements.
   */
  public static boolean modelled(String clusterLabel) {
    return !clusterLabel.equals(Cluster.A100.label());
  }

  /** The model names a mix of {@code cluster} draws from. */
  public static List<String> models(Cluster cluster) {
    return family(cluster).modelNames();
  }

  /**
   * Mix {@code seed} on {@code cluster}: {@code services} services, each small-batch with
   * probability {@code smallBatchShare}, every batch capped at {@code batchCap} too.
   */
  public static ColocationProblem problem(Cluster cluster, int services, double smallBatchShare, int batchCap, long seed,
      ColocationObjective objective) {
    if (services < 1) {
      throw Invalid.value("services", services, "must be >= 1");
    }
    if (!(smallBatchShare >= 0 && smallBatchShare <= 1)) {
      throw Invalid.value("smallBatchShare", smallBatchShare, "must lie in [0, 1]");
    }
    if (batchCap < 1) {
      throw Invalid.value("batchCap", batchCap, "must be >= 1");
    }
    Family f = family(cluster);
    SplittableRandom random = new SplittableRandom(seed);
    List<ColocationService> out = new ArrayList<>();
    for (int i = 0; i < services; i++) {
      String name = f.modelNames().get(random.nextInt(f.modelNames().size()));
      double t1 = f.batchOneSeconds().get(name);
      double rate = Math.exp(RATE_SIGMA * gaussian(random)) / t1;
      double ratio = f.sloRatios()[random.nextInt(f.sloRatios().length)];
      boolean small = random.nextDouble() < smallBatchShare;
      int cap = Math.min(batchCap, small ? SMALL_BATCH : LARGE_BATCH);
      out.add(service(String.format(Locale.ROOT, "s%03d-%s", i, name), f.models().get(name), rate, Duration.ofNanos(Math.round(ratio * t1 * 1e9)),
          cap));
    }
    return new ColocationProblem(out, f.pools(), f.timeModel(), InterferenceModel.defaults(), SloRule.parvaGpu(), MpsAdmission.strict(),
        objective);
  }

  /**
   * A user's demand on {@code cluster}: one service per line, batches the powers of two up to its
   * largest, the cluster family's processes and memory.
   */
  public static ColocationProblem problem(Cluster cluster, List<DemandLine> demand, ColocationObjective objective) {
    Family f = family(cluster);
    List<ColocationService> out = new ArrayList<>();
    for (int i = 0; i < demand.size(); i++) {
      DemandLine d = demand.get(i);
      if (!f.models().containsKey(d.model())) {
        throw Invalid.value("demand[" + i + "].model", d.model(), "is not a model of the " + cluster.label() + " cluster", "use one of " + f.modelNames());
      }
      out.add(service(String.format(Locale.ROOT, "s%03d-%s", i, d.model()), f.models().get(d.model()), d.rate(), d.slo(), d.maxBatch()));
    }
    return new ColocationProblem(out, f.pools(), f.timeModel(), InterferenceModel.defaults(), SloRule.parvaGpu(), MpsAdmission.strict(),
        objective);
  }

  private static ColocationService service(String id, Model model, double rate, Duration slo, int cap) {
    List<Integer> batches = new ArrayList<>();
    for (int b = 1; b <= cap; b *= 2) {
      batches.add(b);
    }
    String name = model.name();
    boolean parva = ParvaGpuScenarios.MODELS.contains(name);
    List<Integer> processes = parva ? List.of(1, 2, 3) : List.of(1);
    long memory = parva ? 0 : name.contains("llama") ? LLAMA_PROCESS_BYTES : SMALL_MODEL_PROCESS_BYTES;
    return new ColocationService(id, model, batches, processes, rate, slo, memory, 1);
  }

  /** The pools of {@code cluster} (1000 accelerators). */
  public static List<GpuPool> pools(Cluster cluster) {
    return family(cluster).pools();
  }

  private static double gaussian(SplittableRandom random) {
    // Box-Muller: SplittableRandom has no nextGaussian on Java 17
    double u = 1 - random.nextDouble();
    double v = random.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  private static Family family(Cluster cluster) {
    if (!cluster.customPools().isEmpty()) {
      return FAMILIES.computeIfAbsent("custom:" + cluster.customPools(), k -> catalogFamily(cluster.customPools()));
    }
    return FAMILIES.computeIfAbsent(cluster.label(), ClusterMixes::build);
  }

  private static Family build(String preset) {
    return switch (preset) {
      case "a100" -> a100();
      case "hetero" -> hetero();
      case "npu" -> npu();
      default -> throw Invalid.value("--cluster", preset, "is not a cluster preset", "use a100, hetero or npu, or --cluster-file");
    };
  }

  private static Family a100() {
    String type = ParvaGpuScenarios.GPU_TYPE;
    GpuPool pool = pool(type, NODES * PER_NODE);
    MeasuredShareTable measured = MeasuredShareTable.published();
    List<ShareSeries> mpsFromMig = new ArrayList<>();
    for (ShareSeries s : measured.series()) {
      if (s.kind() == ShareSeries.Kind.MIG && s.processes() == 1 && ParvaGpuScenarios.MODELS.contains(s.name())) {
        mpsFromMig.add(new ShareSeries(s.name(), s.gpuTypes(), ShareSeries.Kind.MPS, 1, s.batch(), s.shares(), s.seconds(), s.runtime()));
      }
    }
    ShareTimeModel measuredOrFitted = ShareTimeModel.firstOf(List.of(measured, FittedShareTimeModel.fit(measured.series()),
        FittedShareTimeModel.fit(mpsFromMig)));
    AnalyticShareTimeModel analytic = AnalyticShareTimeModel.calibrated();
    // ParvaGPU's models are known by name only (no layers): the analytic tier must never answer for them
    ShareTimeModel time = new ShareTimeModel() {
      @Override
      public OptionalDouble seconds(SharedStage stage) {
        OptionalDouble t = measuredOrFitted.seconds(stage);
        if (t.isPresent() || ParvaGpuScenarios.MODELS.contains(stage.model().name())) {
          return t;
        }
        return analytic.seconds(stage);
      }

      // the tier that answered, so a planning margin follows the measured and fitted tiers' own errors, not the analytic one's
      @Override
      public ShareTier tier(SharedStage stage) {
        return measuredOrFitted.seconds(stage).isPresent() ? measuredOrFitted.tier(stage) : ShareTier.ANALYTIC;
      }
    };
    List<String> names = new ArrayList<>(ParvaGpuScenarios.MODELS);
    names.addAll(LLAMA);
    Map<String, Model> models = new java.util.LinkedHashMap<>();
    for (String n : ParvaGpuScenarios.MODELS) {
      models.put(n, ParvaGpuScenarios.service(n, List.of(1), 1, Duration.ofSeconds(1)).model());
    }
    // under MuxServe's series names and runtime, so that its table times them
    models.put(LLAMA.get(0), Model.of(LLAMA.get(0), ModelCatalog.prefill("llama2-7b", 512).layers()).servedBy(ServingRuntime.MUXSERVE));
    models.put(LLAMA.get(1), Model.of(LLAMA.get(1), ModelCatalog.decode("llama2-7b", 512).layers()).servedBy(ServingRuntime.MUXSERVE));
    return family(names, models, List.of(pool), time, pool);
  }

  private static Family hetero() {
    List<GpuPool> pools = new ArrayList<>();
    int each = NODES * PER_NODE / HETERO_TYPES.size();
    for (String t : HETERO_TYPES) {
      pools.add(pool(t, each));
    }
    return catalogFamily(pools);
  }

  private static Family npu() {
    OneGpuShareExperiment.Device npu = OneGpuShareExperiment.npu();
    return catalogFamily(List.of(new GpuPool(npu.type(), npu.partitioning(), NODES * PER_NODE)));
  }

  private static Family catalogFamily(List<GpuPool> pools) {
    Map<String, Model> models = new java.util.LinkedHashMap<>();
    for (String n : HETERO_MODELS) {
      models.put(n, n.endsWith("-prefill-512") ? ModelCatalog.prefill("llama2-7b", 512)
          : n.endsWith("-decode-512") ? ModelCatalog.decode("llama2-7b", 512) : ModelCatalog.model(n));
    }
    return family(HETERO_MODELS, models, pools, AnalyticShareTimeModel.calibrated(), pools.get(0));
  }

  private static GpuPool pool(String type, int count) {
    GpuType t = GpuCatalog.standard().type(type);
    return new GpuPool(t, SharingCatalog.standard().partitioning(type), count);
  }

  /**
   * Each model's batch-1 time on the reference pool's largest part (the whole card when the time
   * model knows it, else the 7g instance), and ParvaGPU's SLO-to-latency ratios: every published
   * scenario's SLO over that model's measured 7g batch-1 time.
   */
  private static Family family(List<String> names, Map<String, Model> models, List<GpuPool> pools, ShareTimeModel time, GpuPool reference) {
    Map<String, Double> t1 = new java.util.LinkedHashMap<>();
    for (String n : names) {
      t1.put(n, batchOne(time, models.get(n), reference));
    }
    ShareTimeModel parvaTime = MeasuredShareTable.published();
    GpuPool a100 = pool(ParvaGpuScenarios.GPU_TYPE, 1);
    List<Double> ratios = new ArrayList<>();
    for (int k = 1; k <= ParvaGpuScenarios.SCENARIOS; k++) {
      for (String m : ParvaGpuScenarios.MODELS) {
        int scenario = k;
        ParvaGpuScenarios.slo(k, m).ifPresent(slo -> ratios.add(slo.toNanos() / 1e9
            / batchOne(parvaTime, ParvaGpuScenarios.service(m, List.of(1), 1, slo).model(), a100)));
      }
    }
    return new Family(List.copyOf(names), Map.copyOf(models), List.copyOf(pools), time, Map.copyOf(t1),
        ratios.stream().mapToDouble(Double::doubleValue).toArray());
  }

  private static double batchOne(ShareTimeModel time, Model model, GpuPool pool) {
    Placement largest = pool.partitioning().mig()
        .map(g -> (Placement) new MigSlice(g.profiles().stream().max(java.util.Comparator.comparingInt(
            org.rampa.domain.share.MigProfile::memorySlices).thenComparingInt(org.rampa.domain.share.MigProfile::computeSlices)).orElseThrow().name(), 0))
        .orElse(new Whole());
    OptionalDouble whole = time.seconds(SharedStage.wholeModel(model, 1, pool.type(), pool.partitioning(), new Whole()));
    OptionalDouble t = whole.isPresent() ? whole : time.seconds(SharedStage.wholeModel(model, 1, pool.type(), pool.partitioning(), largest));
    return t.orElseThrow(() -> new IllegalStateException("no batch-1 time for " + model.name() + " on " + pool.type().name()));
  }
}
