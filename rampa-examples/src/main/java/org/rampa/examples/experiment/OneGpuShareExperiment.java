package org.rampa.examples.experiment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.rampa.catalog.GpuCatalog;
import org.rampa.catalog.ModelCatalog;
import org.rampa.catalog.SharingCatalog;
import org.rampa.colocation.ColocationObjective;
import org.rampa.colocation.ColocationPerformance;
import org.rampa.colocation.ColocationPlan;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuConfiguration;
import org.rampa.colocation.GpuPool;
import org.rampa.scenarios.ParvaGpuScenarios;
import org.rampa.colocation.Segment;
import org.rampa.colocation.SegmentPerformance;
import org.rampa.colocation.SloRule;
import org.rampa.domain.GpuType;
import org.rampa.domain.ImmutableLayer;
import org.rampa.domain.Model;
import org.rampa.domain.ServingRuntime;
import org.rampa.domain.share.CuMask;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MpsAdmission;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.TemplatePartition;
import org.rampa.domain.share.Whole;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.share.AnalyticShareTimeModel;
import org.rampa.perf.share.LinearInterference;
import org.rampa.perf.share.MeasuredShareTable;
import org.rampa.perf.share.ShareTimeModel;

/**
 * VastPipe's E1 on one accelerator shared by contended parts (MPS shares, AMD CU masks) or hard
 * partition templates (NPU), where the co-location space of one device is small enough to enumerate
 * completely: every multiset of parts from the device's menu (at most {@code maxSegments}
 * segments, {@link #DEFAULT_MAX_SEGMENTS} unless asked; every service of the mix on at least one;
 * parts summing to at most the device) and, per service, one batch size for all its segments. A configuration's throughputs come from
 * {@link ColocationPerformance} (the time model, times α of the linear interference model for
 * exactly that configuration's co-runners) and the winning plan of every row passes {@link
 * ColocationVerifier}.
 *
 * <p>Exclusive use and the gain Z are defined as in {@link OneGpuExperiment}: the k services of a
 * mix take turns on the whole device, each getting 1/k of its exclusive throughput X_s (one process,
 * the whole device, switching costs ignored), and Z is the largest common scale of X_s / k that one
 * co-located device serves. Both regimes: batch = b for every segment and the exclusive process
 * (latency bound lifted), and the best batch under the SLO on both sides, the SLO being {@code
 * sloScale} × the service's batch-1 time alone on the whole device, of which a batch may take all.
 *
 * <p>Memory: a process reserves what the model needs at its batch (weights, per-request state such
 * as the KV cache, working memory; {@link PerformanceModel#stageMemoryBytes}); MPS shares and CU
 * masks reserve it (plus MPS's context per process) from the card, a template must hold it.
 *
 * <p>The search is exact over its menu as long as α does not depend on the co-runners' batches
 * (true of the linear model used here): each configuration is priced once per batch with every
 * segment at that batch, and a service's throughput at batch b is then the same whatever batches
 * the others run.
 */
public final class OneGpuShareExperiment {

  /** The interference levels the issue asks for: linear α = 1 + γ per contended co-runner. */
  public static final List<Double> GAMMAS = List.of(0.03, 0.05, 0.10);

  /** Batches of the per-batch curve, as for ParvaGPU's tables. */
  public static final List<Integer> BATCHES = ParvaGpuScenarios.BATCHES;

  /**
   * The most segments (processes) one device runs unless asked otherwise: MuxServe's 30 % floor
   * allows three anyway, the MI100's 12-CU and the NPU's 1-core parts up to ten and eight.
   */
  public static final int DEFAULT_MAX_SEGMENTS = 4;

  /** The smallest segment cap a run may ask for: every triple needs three (more than six makes the MI100's menu slow). */
  public static final int MIN_SEGMENTS = 3;

  /** The largest segment cap a run may ask for. */
  public static final int MAX_SEGMENTS = 6;

  /** Latency bound of the fixed-batch regime: far above every batch time, so it never binds. */
  private static final Duration NO_SLO = Duration.ofHours(1);

  private static final String REGIME_BATCH = "batch";
  private static final String REGIME_SLO = "best-under-slo";

  /**
   * One service of a source: the model the time model answers for, and the memory one process
   * needs at each batch of {@link #BATCHES}.
   */
  public record ShareService(String id, Model model, long[] memoryPerBatch) {

    /** The memory one process needs at batch {@code batch} (one of {@link #BATCHES}). */
    public long memoryAtBatch(int batch) {
      return memoryPerBatch[BATCHES.indexOf(batch)];
    }
  }

  /** One part of a device's menu: how much of the device it takes and the placement for a process reserving some memory. */
  public record Part(int units, java.util.function.LongFunction<Placement> placement) {}

  /**
   * One accelerator of a source: its type, how it is shared, the tier that times it, its services,
   * its menu of parts and how many units they may sum to.
   */
  public record Device(String source, String tier, GpuType type, GpuPartitioning partitioning, ShareTimeModel timeModel,
      List<ShareService> services, List<Part> parts, int capacity) {

    GpuPool pool() {
      return new GpuPool(type, partitioning, 1);
    }
  }

  /** MuxServe's A100-80GB MPS table: LLaMA-7B and 13B, prefill (512 tokens) and decode (context 512), MPS 30 … 100 %. */
  public static Device muxServe() {
    String type = ParvaGpuScenarios.GPU_TYPE;
    List<ShareService> services = new ArrayList<>();
    for (String size : List.of("7b", "13b")) {
      // MuxServe's LLaMA-1 7B and 13B have Llama-2-7B's and 13B's shapes: the catalog's models give the memory
      String catalog = "llama2-" + size;
      services.add(new ShareService("llama-" + size + "-prefill-512", byName("llama-" + size + "-prefill-512"),
          memory(ModelCatalog.prefill(catalog, 512))));
      services.add(new ShareService("llama-" + size + "-decode-512", byName("llama-" + size + "-decode-512"),
          memory(ModelCatalog.decode(catalog, 512))));
    }
    List<Part> parts = new ArrayList<>();
    for (int tenths = 3; tenths <= 10; tenths++) {
      double fraction = tenths / 10.0;
      parts.add(new Part(tenths, bytes -> new MpsShare(fraction, bytes)));
    }
    return new Device("muxserve", "measured-times-modelled-interference", GpuCatalog.standard().type(type),
        SharingCatalog.standard().partitioning(type), MeasuredShareTable.published(), services, parts, 10);
  }

  /** The MI100 (120 CUs) cut by CU masks in steps of 12 CUs (10 %), catalog models, analytic tier: modelled. */
  public static Device mi100() {
    GpuPartitioning part = SharingCatalog.standard().partitioning("MI100");
    int step = part.computeUnits() / 10;
    List<Part> parts = new ArrayList<>();
    for (int u = 1; u <= 10; u++) {
      int cus = u * step;
      parts.add(new Part(u, bytes -> new CuMask(cus, bytes)));
    }
    return new Device("modelled", "modelled", GpuCatalog.standard().type("MI100"), part, AnalyticShareTimeModel.calibrated(),
        catalogServices(), parts, 10);
  }

  /** The modelled NPU (8 cores) cut by its templates vir01/02/04/08, catalog models, analytic tier: modelled. */
  public static Device npu() {
    GpuType type = SharingCatalog.standard().npuTypes().stream().filter(t -> t.name().equals("NPU-8C-64GB")).findFirst().orElseThrow();
    GpuPartitioning part = SharingCatalog.standard().partitioning(type.name());
    List<Part> parts = part.templates().stream()
        .map(t -> new Part(t.cores(), bytes -> new TemplatePartition(t.name()))).toList();
    return new Device("modelled", "modelled", type, part, AnalyticShareTimeModel.calibrated(), catalogServices(), parts, part.npuCores());
  }

  /** Catalog models for the modelled devices: three CNNs, two BERTs (384 tokens) and a Llama-2-7B decode step at context 512. */
  static List<ShareService> catalogServices() {
    List<ShareService> out = new ArrayList<>();
    for (String name : List.of("resnet50", "mobilenetv2", "vgg16", "bert-base", "bert-large")) {
      Model m = ModelCatalog.model(name);
      out.add(new ShareService(name, m, memory(m)));
    }
    Model decode = ModelCatalog.decode("llama2-7b", 512);
    out.add(new ShareService(decode.name(), decode, memory(decode)));
    return List.copyOf(out);
  }

  private static long[] memory(Model m) {
    return BATCHES.stream().mapToLong(b -> PerformanceModel.defaults().stageMemoryBytes(m, 0, m.size(), b)).toArray();
  }

  /** A model known by its name only: the measured tables answer for it (as ParvaGPU's models). */
  /** A MuxServe model known by its series name only, served by MuxServe's runtime so that its table answers for it. */
  private static Model byName(String name) {
    return Model.of(name, List.of(ImmutableLayer.builder().name(name).flopsPerSample(0).weightBytes(0).outputBytesPerSample(0).build()))
        .servedBy(ServingRuntime.MUXSERVE);
  }

  private final Device device;
  private final double sloScale;
  private final int maxSegments;

  /**
   * @param sloScale the SLO of a service as a multiple of its batch-1 time alone on the whole device (≥ 1)
   * @param maxSegments the most segments (processes) on the device ({@link #MIN_SEGMENTS} … {@link #MAX_SEGMENTS})
   */
  public OneGpuShareExperiment(Device device, double sloScale, int maxSegments) {
    if (maxSegments < MIN_SEGMENTS || maxSegments > MAX_SEGMENTS) {
      throw org.rampa.domain.Invalid.value("maxSegments", maxSegments, "must lie in [" + MIN_SEGMENTS + ", " + MAX_SEGMENTS + "]");
    }
    this.device = device;
    this.sloScale = sloScale;
    this.maxSegments = maxSegments;
  }

  /** The device this experiment shares. */
  public Device device() {
    return device;
  }

  /** Every pair, then every triple, of the device's services. */
  public List<List<String>> mixes() {
    return OneGpuExperiment.pairsAndTriples(device.services().stream().map(ShareService::id).toList());
  }

  /** Runs every mix at every γ and regime, calling {@code progress} after each row. */
  public List<OneGpuExperiment.Row> run(List<List<String>> mixes, List<Double> gammas, Consumer<OneGpuExperiment.Row> progress) {
    Alone alone = new Alone();
    List<OneGpuExperiment.Row> rows = new ArrayList<>();
    for (double gamma : gammas) {
      for (List<String> mix : mixes) {
        for (OneGpuExperiment.Row r : solveMix(mix, gamma, alone)) {
          rows.add(r);
          progress.accept(r);
        }
      }
    }
    return rows;
  }

  /** Rows a run yields per mix and γ: one per batch and one for the best batch under the SLO. */
  public static int rowsPerMix() {
    return BATCHES.size() + 1;
  }

  /** Times of each service alone on the whole device, per batch (no co-runners, so no γ). */
  private final class Alone {
    private final java.util.Map<String, double[]> seconds = new java.util.HashMap<>();

    double[] of(ShareService s) {
      return seconds.computeIfAbsent(s.id(), id -> {
        double[] t = new double[BATCHES.size()];
        for (int i = 0; i < t.length; i++) {
          ColocationProblem p = problem(List.of(service(s, List.of(BATCHES.get(i)), 1, NO_SLO, 0)), new LinearInterference(0));
          t[i] = ColocationPerformance.evaluate(p, new GpuConfiguration(device.type().name(), List.of(new Segment(id, new Whole(), BATCHES.get(i)))))
              .map(x -> x.get(0).batchSeconds()).orElse(Double.NaN);
        }
        return t;
      });
    }
  }

  private ColocationProblem problem(List<ColocationService> services, LinearInterference interference) {
    return new ColocationProblem(services, List.of(device.pool()), device.timeModel(), interference, SloRule.wholeSlo(), MpsAdmission.strict(),
        ColocationObjective.MAX_SCALE).memoized();
  }

  private static ColocationService service(ShareService s, List<Integer> batches, double rate, Duration slo, long memory) {
    return new ColocationService(s.id(), s.model(), batches, List.of(1), rate, slo, memory, 1);
  }

  /** One regime of a mix: candidate batches, each service's SLO, and its exclusive throughput and batch (empty: none). */
  private record Regime(String name, int batch, List<Integer> batches, Duration[] slo, double[] exclusive, String missing) {}

  private List<OneGpuExperiment.Row> solveMix(List<String> mix, double gamma, Alone alone) {
    List<ShareService> services = mix.stream().map(id -> device.services().stream().filter(s -> s.id().equals(id)).findFirst().orElseThrow()).toList();
    List<Regime> regimes = new ArrayList<>();
    for (int b : BATCHES) {
      regimes.add(regime(REGIME_BATCH, b, List.of(b), services, alone, i -> NO_SLO));
    }
    regimes.add(regime(REGIME_SLO, 0, BATCHES, services, alone, i -> slo(services.get(i), alone)));
    LinearInterference interference = new LinearInterference(gamma);
    // services carry no rates or memory here: pricing needs only models, placements and batches
    ColocationProblem pricing = problem(services.stream().map(s -> service(s, BATCHES, 1, NO_SLO, 0)).toList(), interference);
    Best[] best = new Best[regimes.size()];
    enumerate(services.size(), config -> price(pricing, services, config, regimes, best));
    List<OneGpuExperiment.Row> rows = new ArrayList<>();
    for (int r = 0; r < regimes.size(); r++) {
      Regime regime = regimes.get(r);
      List<Double> exclusive = java.util.Arrays.stream(regime.exclusive()).boxed().toList();
      if (regime.missing() != null) {
        rows.add(row(gamma, regime, mix, List.of(), Optional.empty(), "NO_EXCLUSIVE_MEASUREMENT", regime.missing()));
        continue;
      }
      if (best[r] == null) {
        rows.add(row(gamma, regime, mix, exclusive, Optional.empty(), "NO_COLOCATION_ENUMERATED", "no configuration of the menu hosts every service"));
        continue;
      }
      rows.add(row(gamma, regime, mix, exclusive, Optional.of(verified(services, regime, best[r], interference)), "ENUMERATED", describe(best[r].plan())));
    }
    return rows;
  }

  private OneGpuExperiment.Row row(double gamma, Regime regime, List<String> mix, List<Double> exclusive, Optional<Double> gain, String status, String plan) {
    return new OneGpuExperiment.Row(device.source(), device.type().name(), device.tier(), gamma, regime.name(), regime.batch(), mix, exclusive, gain, status, plan);
  }

  private Duration slo(ShareService s, Alone alone) {
    double t1 = alone.of(s)[0];
    return Double.isNaN(t1) ? NO_SLO : Duration.ofNanos(Math.round(sloScale * t1 * 1e9));
  }

  /** Exclusive throughput per service: one process on the whole device at the best candidate batch within its SLO and the card's memory. */
  private Regime regime(String name, int batch, List<Integer> batches, List<ShareService> services, Alone alone, IntFunction<Duration> slo) {
    Duration[] slos = new Duration[services.size()];
    double[] exclusive = new double[services.size()];
    String missing = null;
    for (int i = 0; i < services.size(); i++) {
      slos[i] = slo.apply(i);
      double[] t = alone.of(services.get(i));
      double x = 0;
      for (int b : batches) {
        int bi = BATCHES.indexOf(b);
        double seconds = t[bi];
        if (!Double.isNaN(seconds) && seconds <= slos[i].toNanos() * 1e-9 && services.get(i).memoryAtBatch(b) <= device.partitioning().memoryBytes()) {
          x = Math.max(x, b / seconds);
        }
      }
      exclusive[i] = x;
      if (x == 0 && missing == null) {
        missing = services.get(i).id() + ": no time alone on the whole device" + (name.equals(REGIME_BATCH) ? " at batch " + batch : " within its SLO")
            + " that fits the card's memory";
      }
    }
    return new Regime(name, batch, batches, slos, exclusive, missing);
  }

  /** The best configuration of one regime found so far: its scale, plan and each service's batch. */
  private record Best(double scale, ColocationPlan plan, int[] batches) {}

  /**
   * Calls {@code visit} with every configuration: per service a non-empty multiset of part
   * indices (non-decreasing), all services' parts summing to at most the capacity, at most {@code
   * maxSegments} segments in all.
   */
  private void enumerate(int services, Consumer<List<int[]>> visit) {
    List<int[]> chosen = new ArrayList<>();
    assign(0, services, 0, 0, chosen, visit);
  }

  private void assign(int service, int services, int units, int segments, List<int[]> chosen, Consumer<List<int[]>> visit) {
    if (service == services) {
      visit.accept(List.copyOf(chosen));
      return;
    }
    List<Integer> parts = new ArrayList<>();
    multisets(0, service, services, units, segments, parts, chosen, visit);
  }

  private void multisets(int from, int service, int services, int units, int segments, List<Integer> parts, List<int[]> chosen,
      Consumer<List<int[]>> visit) {
    if (!parts.isEmpty()) {
      chosen.add(parts.stream().mapToInt(Integer::intValue).toArray());
      assign(service + 1, services, units, segments, chosen, visit);
      chosen.remove(chosen.size() - 1);
    }
    // every later service needs at least one segment of the smallest part
    int smallest = device.parts().stream().mapToInt(Part::units).min().orElseThrow();
    int later = services - service - 1;
    for (int p = from; p < device.parts().size(); p++) {
      int u = device.parts().get(p).units();
      if (units + u + later * smallest > device.capacity() || segments + 1 + later > maxSegments) {
        continue;
      }
      parts.add(p);
      multisets(p, service, services, units + u, segments + 1, parts, chosen, visit);
      parts.remove(parts.size() - 1);
    }
  }

  /**
   * Prices one configuration at every batch (all segments at that batch) and, per regime, chooses
   * each service's batch: the vector of batches with the largest scale whose memory the device
   * admits.
   */
  private void price(ColocationProblem pricing, List<ShareService> services, List<int[]> config, List<Regime> regimes, Best[] best) {
    int n = BATCHES.size();
    int k = services.size();
    // seconds and throughput per batch, service: the worst segment's batch time, the services' summed throughput
    double[][] seconds = new double[n][k];
    double[][] throughput = new double[n][k];
    for (int bi = 0; bi < n; bi++) {
      List<Segment> segments = segments(services, config, BATCHES.get(bi), new long[k]);
      Optional<List<SegmentPerformance>> perf = ColocationPerformance.evaluate(pricing, new GpuConfiguration(device.type().name(), segments));
      if (perf.isEmpty()) {
        for (int s = 0; s < k; s++) {
          seconds[bi][s] = Double.NaN;
        }
        continue;
      }
      int i = 0;
      for (int s = 0; s < k; s++) {
        for (int ignored : config.get(s)) {
          SegmentPerformance p = perf.get().get(i++);
          seconds[bi][s] = Math.max(seconds[bi][s], p.batchSeconds());
          throughput[bi][s] += p.throughput();
        }
      }
    }
    for (int r = 0; r < regimes.size(); r++) {
      Regime regime = regimes.get(r);
      if (regime.missing() != null) {
        continue;
      }
      int[] choice = new int[k];
      search(0, services, config, regime, seconds, throughput, choice, Double.POSITIVE_INFINITY, best, r);
    }
  }

  /** Depth-first over one batch per service, bounding by the scale reached so far. */
  private void search(int s, List<ShareService> services, List<int[]> config, Regime regime, double[][] seconds, double[][] throughput,
      int[] choice, double scale, Best[] best, int r) {
    int k = services.size();
    if (best[r] != null && scale <= best[r].scale()) {
      return;
    }
    if (s == k) {
      int[] batches = new int[k];
      long[] memory = new long[k];
      for (int i = 0; i < k; i++) {
        batches[i] = BATCHES.get(choice[i]);
        memory[i] = services.get(i).memoryAtBatch(batches[i]);
      }
      List<Segment> segments = segmentsAt(services, config, batches, memory);
      if (fits(segments, services, memory)) {
        best[r] = new Best(scale, new ColocationPlan(List.of(new GpuConfiguration(device.type().name(), segments)), scale), batches);
      }
      return;
    }
    double rate = regime.exclusive()[s] / k;
    for (int b : regime.batches()) {
      int bi = BATCHES.indexOf(b);
      double t = seconds[bi][s];
      if (Double.isNaN(t) || t > regime.slo()[s].toNanos() * 1e-9 || throughput[bi][s] == 0) {
        continue;
      }
      choice[s] = bi;
      search(s + 1, services, config, regime, seconds, throughput, choice, Math.min(scale, throughput[bi][s] / rate), best, r);
    }
  }

  /** The device's memory rules for the reservations of one configuration: MPS and CU-mask admission, a template's memory. */
  private boolean fits(List<Segment> segments, List<ShareService> services, long[] memory) {
    GpuPartitioning part = device.partitioning();
    if (MpsAdmission.strict().check(part, segments.stream().map(Segment::placement).toList()).isPresent()) {
      return false;
    }
    for (Segment seg : segments) {
      int i = services.stream().map(ShareService::id).toList().indexOf(seg.service());
      if (seg.placement() instanceof TemplatePartition && seg.placement().memoryBytes(part) < memory[i]) {
        return false;
      }
    }
    return true;
  }

  private List<Segment> segments(List<ShareService> services, List<int[]> config, int batch, long[] memory) {
    int[] batches = new int[services.size()];
    java.util.Arrays.fill(batches, batch);
    return segmentsAt(services, config, batches, memory);
  }

  private List<Segment> segmentsAt(List<ShareService> services, List<int[]> config, int[] batches, long[] memory) {
    List<Segment> out = new ArrayList<>();
    for (int s = 0; s < services.size(); s++) {
      for (int p : config.get(s)) {
        out.add(new Segment(services.get(s).id(), device.parts().get(p).placement().apply(memory[s]), batches[s]));
      }
    }
    return out;
  }

  /**
   * The winning plan checked by {@link ColocationVerifier} against the regime's own problem (rates
   * X_s / k, the SLO, each service's memory at its batch); its scale recomputed from the
   * verifier's throughputs. A refusal is a bug of this search, not a result.
   */
  private double verified(List<ShareService> services, Regime regime, Best best, LinearInterference interference) {
    List<ColocationService> check = new ArrayList<>();
    for (int i = 0; i < services.size(); i++) {
      ShareService s = services.get(i);
      check.add(service(s, regime.batches(), regime.exclusive()[i] / services.size(), regime.slo()[i], s.memoryAtBatch(best.batches()[i])));
    }
    ColocationProblem problem = problem(check, interference);
    var served = ColocationVerifier.throughputs(problem, best.plan());
    double scale = check.stream().mapToDouble(c -> served.get(c.id()) / c.rate()).min().orElseThrow();
    ColocationVerifier.requireValid(problem, new ColocationPlan(best.plan().gpus(), scale), "vastpipe-e1 enumeration");
    return scale;
  }

  private static String describe(ColocationPlan plan) {
    return plan.gpus().get(0).segments().stream().map(s -> s.service() + " " + s.placement().label() + " batch " + s.batch())
        .reduce((x, y) -> x + " | " + y).orElse("");
  }
}
