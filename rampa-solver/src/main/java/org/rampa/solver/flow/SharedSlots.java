package org.rampa.solver.flow;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rampa.domain.Allocation;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.Plan;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Stage;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.perf.PerformanceModel;
import org.rampa.perf.PlanEstimate;
import org.rampa.perf.SloPredicate;
import org.rampa.perf.share.CoRunner;
import org.rampa.perf.share.InterferenceModel;
import org.rampa.perf.share.SharedStage;
import org.rampa.strategy.support.SharedSlotMenu;
import org.rampa.verify.InterferenceGuard;

/**
 * The shared-GPU part of an {@link IntervalFlowFormulation} (docs/SHARING.md section 5, "per service"),
 * read from the problem's {@link SharedSlotMenu}: the placements a stage may take besides a whole
 * free GPU, and what each does to the GPU's incumbents.
 *
 * <ul>
 *   <li><b>Fresh placements</b> ({@link #freshKeys}): the menu's MPS levels on free GPUs, per type;
 *       the whole GPU is the formulation's ordinary arc. Nobody runs there, so α = 1.
 *   <li><b>Partly used slots</b> ({@link Part}): one placement on one partly used GPU, with the
 *       menu's α (the incumbents' slowdown of a newcomer) and cost. One GPU may offer several (MPS
 *       levels); a plan takes at most one holding per GPU.
 *   <li><b>Incumbents</b> ({@link Incumbent}): every service with a request and plan on a partly
 *       used slot's GPU: its stages' compute alone and α now (the largest over its replicas' GPUs),
 *       re-timed as the verifier does, so each newcomer stage's effect on it is a constant per
 *       (arc, GPU) and its SLO a few linear rows.
 * </ul>
 */
final class SharedSlots {

  /** A partly used GPU's slot. */
  static final class Part {
    final int index;
    final SharedSlotMenu.Slot slot;
    final String gpu;
    final int type;
    final double cost;
    /** (incumbent, stage) pairs with a replica on this GPU. */
    final List<int[]> incumbentStages = new ArrayList<>();
    /** Per {@link #incumbentStages} entry: that stage here as a co-runner, and everything else here. */
    final List<CoRunner> incumbentSelves = new ArrayList<>();
    final List<List<CoRunner>> incumbentOthers = new ArrayList<>();

    Part(int index, SharedSlotMenu.Slot slot, int type) {
      this.index = index;
      this.slot = slot;
      this.gpu = slot.gpus().get(0);
      this.type = type;
      this.cost = slot.costs().get(0);
    }
  }

  /** A service already placed on some partly used slot's GPU, as the admission guard re-times it. */
  static final class Incumbent {
    final String service;
    final ServiceRequest request;
    final Plan plan;
    /** Per stage: compute alone (no co-runners), seconds. */
    final double[] alone;
    /** Per stage: α now, the largest over its replicas' GPUs. */
    final double[] alpha;
    /** Per stage: its busy time per batch besides compute (serial transfers), seconds. */
    final double[] loadBesidesCompute;
    /** Latency besides compute (batching wait and transfers), seconds. */
    final double latencyBesidesCompute;

    Incumbent(String service, ServiceRequest request, Plan plan, double[] alone, double[] alpha, double[] loadBesidesCompute,
        double latencyBesidesCompute) {
      this.service = service;
      this.request = request;
      this.plan = plan;
      this.alone = alone;
      this.alpha = alpha;
      this.loadBesidesCompute = loadBesidesCompute;
      this.latencyBesidesCompute = latencyBesidesCompute;
    }

    /** Whether stage {@code k} keeps the period at slowdown {@code a}. */
    boolean keepsPeriod(int k, double a) {
      int replicas = plan.stages().get(k).gpus().size();
      return SloPredicate.meetsPeriod(alone[k] * a / replicas + loadBesidesCompute[k], request.slo());
    }

    /** Whether the service meets its SLO at the slowdowns {@code alphas}. */
    boolean meets(double[] alphas) {
      double latency = latencyBesidesCompute;
      for (int k = 0; k < alone.length; k++) {
        if (!keepsPeriod(k, alphas[k])) {
          return false;
        }
        latency += alone[k] * alphas[k];
      }
      return SloPredicate.meetsLatency(latency, request.slo());
    }
  }

  final ServiceRequest request;
  final ClusterState state;
  final PerformanceModel performance;
  final InterferenceModel interference;
  /** Re-times incumbents exactly as the admission guard and the verifier do. */
  private final InterferenceGuard guard;
  /** Per formulation type index: the MPS placements the menu offers on free GPUs of it. */
  final List<List<Placement>> freshKeys = new ArrayList<>();
  /** Per free GPU offering shares: its cost per {@link #freshKeys} entry of its type (NaN: not offered). */
  final Map<String, double[]> freshCosts = new HashMap<>();
  /** Per formulation type index: the most memory a stage on each fresh key may need. */
  final List<long[]> freshMemoryCaps = new ArrayList<>();
  final List<Part> parts = new ArrayList<>();
  final List<Incumbent> incumbents = new ArrayList<>();
  private final Map<String, Integer> incumbentIndex = new HashMap<>();

  private final Map<String, Integer> typeIndex = new HashMap<>();

  private int freshTypeOf(String gpu) {
    return typeIndex.get(state.cluster().typeOf(gpu).name());
  }

  SharedSlots(ServiceRequest request, ClusterState state, PerformanceModel performance, InterferenceModel interference,
      List<GpuType> types, SharedSlotMenu menu) {
    this.request = request;
    this.state = state;
    this.performance = performance;
    this.interference = interference;
    this.guard = new InterferenceGuard(performance, interference);
    for (int t = 0; t < types.size(); t++) {
      typeIndex.put(types.get(t).name(), t);
      freshKeys.add(new ArrayList<>());
    }
    List<SharedSlotMenu.Slot> fresh = new ArrayList<>();
    for (SharedSlotMenu.Slot s : menu.slots()) {
      Integer t = typeIndex.get(s.type().name());
      if (s.origin() == SharedSlotMenu.Origin.FREE_GPUS && !(s.placement() instanceof Whole) && t != null) {
        fresh.add(s);
        if (!freshKeys.get(t).contains(key(s.placement()))) {
          freshKeys.get(t).add(key(s.placement()));
        }
      }
    }
    for (int t = 0; t < types.size(); t++) {
      freshMemoryCaps.add(new long[freshKeys.get(t).size()]);
    }
    for (SharedSlotMenu.Slot s : fresh) {
      int t = typeIndex.get(s.type().name());
      int k = freshKeys.get(t).indexOf(key(s.placement()));
      freshMemoryCaps.get(t)[k] = s.memoryCapBytes();
      for (int g = 0; g < s.gpus().size(); g++) {
        double[] costs = freshCosts.computeIfAbsent(s.gpus().get(g), id -> {
          double[] none = new double[freshKeys.get(t).size()];
          Arrays.fill(none, Double.NaN);
          return none;
        });
        costs[k] = s.costs().get(g);
      }
    }
    for (SharedSlotMenu.Slot s : menu.slots()) {
      Integer t = typeIndex.get(s.type().name());
      if (s.origin() != SharedSlotMenu.Origin.PARTLY_USED || t == null) {
        continue;
      }
      Gpu g = state.cluster().gpu(s.gpus().get(0));
      if (incumbentsMeetNow(g)) {
        parts.add(new Part(parts.size(), s, t));
      }
    }
    for (Part p : parts) {
      for (Allocation a : state.allocations().values()) {
        if (a.plan().isEmpty()) {
          continue;
        }
        List<Stage> stages = a.plan().get().stages();
        for (int k = 0; k < stages.size(); k++) {
          if (stages.get(k).gpus().contains(p.gpu)) {
            p.incumbentStages.add(new int[] {incumbent(a), k});
            p.incumbentSelves.add(incumbentCoRunner(a, k, p.gpu));
            p.incumbentOthers.add(coRunnersOn(p.gpu, a.serviceId(), k));
          }
        }
      }
    }
  }

  /** A placement as an arc's key: MPS shares and CU masks without their reservation (each stage books its own). */
  static Placement key(Placement p) {
    return SharedSlotMenu.withReservation(p, 0);
  }

  /**
   * A GPU some incumbent of which misses its SLO already cannot take a newcomer (the guard re-times
   * everyone on a touched GPU): it is left out.
   */
  private boolean incumbentsMeetNow(Gpu g) {
    for (Allocation a : state.allocations().values()) {
      if (a.plan().isPresent() && a.holdings().stream().anyMatch(h -> h.gpu().equals(g.id()))) {
        Incumbent inc = incumbents.get(incumbent(a));
        if (!inc.meets(inc.alpha)) {
          return false;
        }
      }
    }
    return true;
  }

  private int incumbent(Allocation a) {
    Integer known = incumbentIndex.get(a.serviceId());
    if (known != null) {
      return known;
    }
    ServiceRequest r = a.request().get();
    Plan plan = a.plan().get();
    PlanEstimate e = performance.estimate(r, PerformanceModel.assignmentsOf(plan), state.cluster());
    int k = plan.stages().size();
    double[] alone = new double[k];
    double[] alpha = new double[k];
    double[] besides = new double[k];
    double compute = 0;
    for (int i = 0; i < k; i++) {
      alone[i] = e.stageComputeSeconds().get(i);
      besides[i] = e.stageLoadSeconds().get(i) - alone[i] / plan.stages().get(i).gpus().size();
      compute += alone[i];
      alpha[i] = 1;
      for (String g : plan.stages().get(i).gpus()) {
        alpha[i] = Math.max(alpha[i], interference.slowdown(state.cluster().typeOf(g), incumbentCoRunner(a, i, g),
            coRunnersOn(g, a.serviceId(), i)));
      }
    }
    Incumbent inc = new Incumbent(a.serviceId(), r, plan, alone, alpha, besides, e.latencySeconds() - compute);
    incumbents.add(inc);
    incumbentIndex.put(a.serviceId(), incumbents.size() - 1);
    return incumbents.size() - 1;
  }

  /** Stage {@code k} of incumbent allocation {@code a} on GPU {@code gpu}, as a co-runner (the guard's view). */
  CoRunner incumbentCoRunner(Allocation a, int k, String gpu) {
    return guard.coRunnerOf(state, a.serviceId(), k, gpu);
  }

  /** Everything on {@code gpu} as co-runners, but stage {@code stage} of {@code service} (the guard's view). */
  List<CoRunner> coRunnersOn(String gpu, String service, int stage) {
    return guard.coRunnersOn(state, gpu, service, stage);
  }

  /** The placement a stage needing {@code memory} bytes takes for {@code key}. */
  static Placement withMemory(Placement key, long memory) {
    return SharedSlotMenu.withReservation(key, memory);
  }

  /** The newcomer's stage {@code [from, to)} on {@code placement} of {@code gpu}, as a co-runner. */
  CoRunner newcomer(int from, int to, String gpu, Placement placement, double aloneSeconds) {
    SharedStage stage = new SharedStage(request.model(), from, to, request.slo().batchSize(), state.cluster().typeOf(gpu),
        state.partitioning(gpu), placement);
    return CoRunner.of(request.id(), stage, aloneSeconds);
  }

  /**
   * α of the stage of {@code part}'s {@code entry}-th incumbent stage once {@code newcomer} joins
   * the GPU, the largest over that stage's replicas' GPUs (the others keep theirs).
   */
  double incumbentAlphaWith(Part part, int entry, CoRunner newcomer) {
    int[] ik = part.incumbentStages.get(entry);
    List<CoRunner> others = new ArrayList<>(part.incumbentOthers.get(entry));
    others.add(newcomer);
    double here = interference.slowdown(state.cluster().typeOf(part.gpu), part.incumbentSelves.get(entry), others);
    return Math.max(incumbents.get(ik[0]).alpha[ik[1]], here);
  }

  /** The cost of holding {@code placement} (an arc's key with its memory) on {@code gpu}, as the menu prices it. */
  double cost(String gpu, Placement placement) {
    Placement k = key(placement);
    double[] fresh = freshCosts.get(gpu);
    if (fresh != null) {
      List<Placement> keys = freshKeys.get(freshTypeOf(gpu));
      int i = keys.indexOf(k);
      if (i >= 0 && !Double.isNaN(fresh[i])) {
        return fresh[i];
      }
    }
    for (Part p : parts) {
      if (p.gpu.equals(gpu) && key(p.slot.placement()).equals(k)) {
        return p.cost;
      }
    }
    throw new IllegalStateException("the menu offers no " + placement.label() + " on GPU " + gpu);
  }
}
