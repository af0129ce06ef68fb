package org.rampa.perf;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.rampa.domain.Cluster;
import org.rampa.domain.GpuType;
import org.rampa.domain.Invalid;
import org.rampa.domain.Layer;
import org.rampa.domain.LatencyProfile;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Stage;
import org.rampa.perf.share.ShareTimeModel;
import org.rampa.perf.share.TierMargins;

/**
 * The performance model of docs/SPEC.md section 3: per-layer roofline (or measured profile), stage times,
 * transfers, period, throughput, latency and stage memory. Stateless and thread-safe.
 *
 * <p>A stage with {@code r} data-parallel replicas is busy {@code T_k / r} per batch (replicas take
 * batches in turn) while one request still spends the full {@code T_k} in it, so replicas raise
 * throughput but not latency. A stage on a part of its GPU (an MPS share, a MIG slice ...) takes
 * the time the share-time tiers give its {@link DeviceKind} (docs/SHARING.md section 2), before any
 * interference from co-runners, which depends on the ledger and is the admission guard's business.
 */
public final class PerformanceModel {

  private static final PerformanceModel DEFAULT = new PerformanceModel(TransferMode.OVERLAPPED, TierMargins.none());

  private final TransferMode transferMode;
  private final TierMargins shareMargins;

  private PerformanceModel(TransferMode transferMode, TierMargins shareMargins) {
    this.transferMode = Objects.requireNonNull(transferMode, "transferMode");
    this.shareMargins = Objects.requireNonNull(shareMargins, "shareMargins");
  }

  /** Overlapped transfers, as docs/SPEC.md section 3. */
  public static PerformanceModel defaults() {
    return DEFAULT;
  }

  public static PerformanceModel withTransfers(TransferMode mode) {
    return mode == TransferMode.OVERLAPPED ? DEFAULT : new PerformanceModel(mode, TierMargins.none());
  }

  public TransferMode transferMode() {
    return transferMode;
  }

  /**
   * The same model whose stages on shared GPUs (and a non-TensorRT model's whole GPU), which the
   * share-time tiers answer, take their time × (1 + the answering tier's margin)
   * ({@link ShareTimeModel#withMargins}); whole-GPU stages timed by the catalog's layer sums are
   * unchanged. A strategy and the verifier that read times from the same model judge a plan under
   * the same margin.
   */
  public PerformanceModel withShareMargins(TierMargins margins) {
    return margins.equals(shareMargins) ? this : new PerformanceModel(transferMode, margins);
  }

  /**
   * Equal when the transfer mode and the share margins are, which is all a model's times depend on:
   * a placement with sharing on builds its own model ({@link #withShareMargins}), and what one
   * placement memoizes per model (a slot menu's guard answers) serves the next placement's equal one.
   */
  @Override
  public boolean equals(Object o) {
    return o instanceof PerformanceModel m && m.transferMode == transferMode && m.shareMargins.equals(shareMargins);
  }

  @Override
  public int hashCode() {
    return Objects.hash(transferMode, shareMargins);
  }

  /** The planning margins on share-tier times: none unless {@link #withShareMargins} set some. */
  public TierMargins shareMargins() {
    return shareMargins;
  }

  /**
   * The share-time tiers this model times shared stages with, margins included (asked when a time
   * is read: the tiers load the published tables on first use, which whole-GPU planning never needs).
   */
  ShareTimeModel shareTimes() {
    return ShareTimeModel.defaults().withMargins(shareMargins);
  }

  /** t(l, g, b): measured profile if the layer has one for this type, else the roofline. */
  public double layerSeconds(Layer layer, GpuType type, int batch) {
    Optional<LatencyProfile> measured = layer.profileFor(type.name());
    if (measured.isPresent()) {
      return measured.get().seconds(batch);
    }
    return Roofline.of(layer, type, batch).boundSeconds() + type.layerOverhead().toNanos() * 1e-9;
  }

  /** T_k for layers [from, to) on one whole GPU of {@code type}. */
  public double stageSeconds(Model model, int from, int to, GpuType type, int batch) {
    return cursor(model, batch, from, to, List.of(new WholeGpu(type))).seconds(0);
  }

  /** Memory of layers [from, to) at batch b, as {@link StageCursor#memoryBytes()} counts it. */
  public long stageMemoryBytes(Model model, int from, int to, int batch) {
    return cursor(model, batch, from, to, List.of()).memoryBytes();
  }

  /** The weights of layers [from, to), as {@link StageCursor#weightBytes()} counts them. */
  public long stageWeightBytes(Model model, int from, int to) {
    return cursor(model, 1, from, to, List.of()).weightBytes();
  }

  /**
   * An empty stage starting at layer {@code from} that accumulates its time on each of
   * {@code kinds} as layers are added (none: memory only).
   */
  public StageCursor cursor(Model model, int batch, int from, List<? extends DeviceKind> kinds) {
    return new StageCursor(this, model, batch, from, kinds);
  }

  /** Every layer's memory at batch {@code batch}, in the two parts a stage combines. */
  public static LayerMemory layerMemory(Model model, int batch) {
    List<Long> additive = new ArrayList<>(model.size());
    List<Long> peak = new ArrayList<>(model.size());
    for (Layer layer : model.layers()) {
      additive.add(StageCursor.additiveBytes(layer, batch));
      peak.add(StageCursor.peakBytes(layer, batch));
    }
    return new LayerMemory(additive, peak);
  }

  private StageCursor cursor(Model model, int batch, int from, int to, List<? extends DeviceKind> kinds) {
    if (to <= from || to > model.size()) {
      throw Invalid.value("stage.[from, to)", "[" + from + ", " + to + ")",
          "must be a non-empty layer range within the model's " + model.size() + " layers");
    }
    StageCursor c = cursor(model, batch, from, kinds);
    while (c.to() < to) {
      c.add();
    }
    return c;
  }

  /** τ at the cut before layer {@code cut} over {@code link} for one batch (0 with transfers NONE). */
  public double transferSeconds(Model model, int cut, int batch, Link link) {
    if (transferMode == TransferMode.NONE) {
      return 0;
    }
    return link.transferSeconds((double) batch * model.cutBytesPerSample(cut));
  }

  /**
   * The link between two consecutive stages: the node's own link when every GPU of both stages sits
   * on that one node, otherwise the network.
   */
  public static Link linkBetween(Cluster cluster, List<String> gpusA, List<String> gpusB) {
    String node = cluster.gpu(gpusA.get(0)).node();
    for (List<String> gpus : List.of(gpusA, gpusB)) {
      for (String g : gpus) {
        if (!cluster.gpu(g).node().equals(node)) {
          return cluster.network();
        }
      }
    }
    return cluster.node(node).intraLink();
  }

  /** Predicts everything about a placement of {@code request} given as stage assignments. */
  public PlanEstimate estimate(ServiceRequest request, List<StageAssignment> stages, Cluster cluster) {
    return estimate(request, stages, cluster, null);
  }

  /**
   * As {@link #estimate(ServiceRequest, List, Cluster)} with stage {@code k}'s time multiplied by
   * {@code slowdowns.get(k)} (α ≥ 1 from its co-runners, docs/SHARING.md section 3).
   */
  public PlanEstimate estimate(ServiceRequest request, List<StageAssignment> stages, Cluster cluster, List<Double> slowdowns) {
    if (slowdowns != null && slowdowns.size() != stages.size()) {
      throw Invalid.value("slowdowns", slowdowns, "must give one factor per stage (" + stages.size() + ")");
    }
    if (stages.isEmpty()) {
      throw Invalid.value("stages", "[]", "a placement needs at least one stage");
    }
    Model model = request.model();
    int b = request.slo().batchSize();
    int k = stages.size();
    List<Double> compute = new ArrayList<>(k);
    List<Long> memory = new ArrayList<>(k);
    List<Double> transfer = new ArrayList<>(Math.max(0, k - 1));
    for (int i = 0; i < k; i++) {
      StageAssignment s = stages.get(i);
      if (s.to() > model.size()) {
        throw Invalid.value("stage[" + i + "].to", s.to(), "exceeds the model's " + model.size() + " layers");
      }
      DeviceKind kind = DeviceKind.of(cluster.typeOf(s.gpus().get(0)), s.placement());
      double alone = cursor(model, b, s.from(), s.to(), List.of(kind)).seconds(0);
      compute.add(slowdowns == null ? alone : alone * slowdowns.get(i));
      memory.add(stageMemoryBytes(model, s.from(), s.to(), b));
      if (i > 0) {
        Link link = linkBetween(cluster, stages.get(i - 1).gpus(), s.gpus());
        transfer.add(transferSeconds(model, s.from(), b, link));
      }
    }
    return combine(request, stages, compute, transfer, memory);
  }

  /**
   * Exactly {@code estimate(request, stages, cluster, slowdowns)} when {@code alone} is
   * {@code estimate(request, stages, cluster)}, without timing the stages again: re-timing a
   * service with new co-runners changes only its slowdowns, and a stage on a share is timed by the
   * share-time tiers, the costly part of an estimate.
   */
  public PlanEstimate slowed(ServiceRequest request, List<StageAssignment> stages, PlanEstimate alone, List<Double> slowdowns) {
    if (slowdowns.size() != stages.size() || alone.stageComputeSeconds().size() != stages.size()) {
      throw Invalid.value("slowdowns", slowdowns, "must give one factor per stage (" + stages.size() + "), as the estimate alone has");
    }
    List<Double> compute = new ArrayList<>(stages.size());
    for (int i = 0; i < stages.size(); i++) {
      compute.add(alone.stageComputeSeconds().get(i) * slowdowns.get(i));
    }
    return combine(request, stages, compute, alone.transferSeconds(), alone.stageMemoryBytes());
  }

  /** Period, throughput and latency of stages taking {@code compute} each, with {@code transfer} at the cuts. */
  private PlanEstimate combine(ServiceRequest request, List<StageAssignment> stages, List<Double> compute, List<Double> transfer,
      List<Long> memory) {
    int b = request.slo().batchSize();
    int k = stages.size();
    List<Double> load = new ArrayList<>(k);
    double period = 0;
    double latency = request.slo().batchingWaitSeconds();
    for (int i = 0; i < k; i++) {
      double busy = compute.get(i) / stages.get(i).gpus().size();
      double in = i > 0 ? transfer.get(i - 1) : 0;
      double out = i < k - 1 ? transfer.get(i) : 0;
      if (transferMode == TransferMode.SERIAL) {
        busy += in + out;
      } else {
        period = Math.max(period, out);
      }
      load.add(busy);
      period = Math.max(period, busy);
      latency += compute.get(i) + out;
    }
    double throughput = period > 0 ? b / period : Double.POSITIVE_INFINITY;
    return new PlanEstimate(compute, load, transfer, memory, period, throughput, latency);
  }

  /** The stage assignments of an existing plan (its predictions ignored). */
  public static List<StageAssignment> assignmentsOf(Plan plan) {
    List<StageAssignment> out = new ArrayList<>();
    for (Stage s : plan.stages()) {
      out.add(new StageAssignment(s.from(), s.to(), s.gpus(), s.placement()));
    }
    return out;
  }

  /** A plan for {@code request} with every prediction filled in from this model. */
  public Plan plan(ServiceRequest request, List<StageAssignment> stages, Cluster cluster, double cost, String strategy) {
    PlanEstimate e = estimate(request, stages, cluster);
    var builder = Plan.builder()
        .serviceId(request.id())
        .period(seconds(e.periodSeconds()))
        .throughput(e.throughput())
        .latency(seconds(e.latencySeconds()))
        .cost(cost)
        .strategy(strategy);
    for (int i = 0; i < stages.size(); i++) {
      StageAssignment s = stages.get(i);
      builder.addStages(Stage.builder()
          .from(s.from())
          .to(s.to())
          .gpus(s.gpus())
          .placement(s.placement())
          .computeTime(seconds(e.stageComputeSeconds().get(i)))
          .memoryBytes(e.stageMemoryBytes().get(i))
          .build());
    }
    return builder.build();
  }

  /**
   * Seconds to a Duration, rounded to the nearest nanosecond: a latency that equals a bound given in
   * whole nanoseconds, as a sum of layer times whose last bits rounded up, is reported as the bound
   * and not a nanosecond above it. The SLO itself is judged on the seconds, by {@link SloPredicate}.
   */
  public static Duration seconds(double seconds) {
    if (!Double.isFinite(seconds)) {
      throw Invalid.value("seconds", seconds, "must be finite");
    }
    return Duration.ofNanos(Math.round(seconds * 1e9));
  }
}
