package org.rampa.solver.boundary;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.rampa.domain.share.Whole;
import org.rampa.domain.BatchingWait;
import org.rampa.domain.Cluster;
import org.rampa.domain.Gpu;
import org.rampa.domain.GpuType;
import org.rampa.domain.LatencyPoint;
import org.rampa.domain.LatencyProfile;
import org.rampa.domain.Layer;
import org.rampa.domain.Link;
import org.rampa.domain.Model;
import org.rampa.domain.Slo;
import org.rampa.importance.GpuCosts;
import org.rampa.perf.StageAssignment;
import org.rampa.perf.TransferMode;
import org.rampa.strategy.PlacementProblem;

/**
 * An independent brute-force reference in exact arithmetic. It shares no code with the performance
 * model: it reads layer times from the instances' measured profiles (one point per GPU type at the
 * request's batch, so every layer time is a whole number of nanoseconds), computes transfers,
 * period and latency as fractions of nanoseconds, and applies the SLO predicate's documented rule
 * (throughput at least λ·(1 − 10⁻⁶), latency at most D·(1 + 10⁻⁶)) exactly. It enumerates every
 * contiguous split into at most {@code maxStages} stages and every assignment of disjoint non-empty
 * sets of completely free same-type GPUs, pruning only what cannot be feasible or cheaper: a partial
 * cost above the best, a stage whose own {@code T/r} already breaks the period, compute alone
 * already beyond the latency bound, memory.
 */
final class ExactReference {

  /** {@code SloPredicate.RELATIVE_TOLERANCE}, written as the exact decimal its documentation states. */
  static final Rational TOLERANCE = Rational.of(1, 1_000_000);
  private static final Rational NANOS_PER_SECOND = Rational.of(1_000_000_000L);

  record Optimum(Rational cost, List<StageAssignment> stages) {}

  /** Exact predictions of one placement, in nanoseconds. */
  record Evaluation(Rational periodNanos, Rational latencyNanos, boolean fitsMemory) {}

  private final PlacementProblem problem;
  private final Cluster cluster;
  private final Model model;
  private final Slo slo;
  private final int batch;
  private final TransferMode mode;
  private final List<Gpu> free;
  private final Rational[] cost;
  /** λ·(1 − ε) per nanosecond, times the period in ns, must not exceed b. */
  private final Rational minThroughputPerNano;
  private final Rational maxLatencyNanos;
  private final Rational waitNanos;
  private Optimum best;
  long placementsChecked;

  ExactReference(PlacementProblem problem) {
    this.problem = problem;
    this.cluster = problem.state().cluster();
    this.model = problem.request().model();
    this.slo = problem.request().slo();
    this.batch = slo.batchSize();
    this.mode = problem.performance().transferMode();
    this.free = problem.state().freeGpus();
    GpuCosts costs = problem.importance().evaluate(problem.state());
    this.cost = new Rational[free.size()];
    for (int i = 0; i < free.size(); i++) {
      cost[i] = Rational.of(costs.of(free.get(i).id()));
    }
    Rational lambda = Rational.of(slo.requiredThroughput());
    this.minThroughputPerNano = lambda.times(Rational.ONE.minus(TOLERANCE)).dividedBy(NANOS_PER_SECOND);
    this.maxLatencyNanos = Rational.of(slo.latencyBound().toNanos()).times(Rational.ONE.plus(TOLERANCE));
    this.waitNanos = slo.batchingWait() == BatchingWait.FILL_AT_REQUIRED_RATE
        ? Rational.of(batch - 1).times(NANOS_PER_SECOND).dividedBy(lambda)
        : Rational.ZERO;
  }

  /** The least-cost placement that meets the SLO exactly, or empty when none does. */
  Optional<Optimum> solve() {
    best = null;
    search(0, 0, Rational.ZERO, 0, new ArrayList<>());
    return Optional.ofNullable(best);
  }

  /** Layer time on {@code type}: the instance's one measured point, at the request's batch. */
  long layerNanos(int layer, GpuType type) {
    Layer l = model.layer(layer);
    LatencyProfile profile = l.profileFor(type.name()).orElseThrow(
        () -> new IllegalArgumentException("reference needs a measured time for layer " + layer + " on " + type.name()));
    LatencyPoint point = profile.points().get(0);
    if (profile.points().size() != 1 || point.batch() != batch) {
      throw new IllegalArgumentException("reference needs exactly one measured point at batch " + batch);
    }
    return point.latency().toNanos();
  }

  long stageNanos(int from, int to, GpuType type) {
    long t = 0;
    for (int l = from; l < to; l++) {
      t += layerNanos(l, type);
    }
    return t;
  }

  long stageMemory(int from, int to) {
    long weights = 0;
    long state = 0;
    long working = 0;
    for (int l = from; l < to; l++) {
      Layer layer = model.layer(l);
      weights += layer.weightBytes();
      state += layer.stateBytesPerSample();
      working = Math.max(working, layer.workingBytesPerSample());
    }
    return weights + batch * (state + working);
  }

  Rational transferNanos(int cut, Link link) {
    if (mode == TransferMode.NONE) {
      return Rational.ZERO;
    }
    Rational bytes = Rational.of((long) batch * model.cutBytesPerSample(cut));
    return Rational.of(link.latency().toNanos()).plus(bytes.times(NANOS_PER_SECOND).dividedBy(Rational.of(link.bandwidthBytesPerSecond())));
  }

  private Link link(List<String> a, List<String> b) {
    Set<String> nodes = new HashSet<>();
    a.forEach(g -> nodes.add(cluster.gpu(g).node()));
    b.forEach(g -> nodes.add(cluster.gpu(g).node()));
    return nodes.size() == 1 ? cluster.node(nodes.iterator().next()).intraLink() : cluster.network();
  }

  Evaluation evaluate(List<StageAssignment> stages) {
    int k = stages.size();
    Rational[] out = new Rational[k];
    boolean fits = true;
    for (int i = 0; i < k; i++) {
      out[i] = i < k - 1 ? transferNanos(stages.get(i).to(), link(stages.get(i).gpus(), stages.get(i + 1).gpus())) : Rational.ZERO;
    }
    Rational period = Rational.ZERO;
    Rational latency = waitNanos;
    for (int i = 0; i < k; i++) {
      StageAssignment s = stages.get(i);
      GpuType type = cluster.typeOf(s.gpus().get(0));
      long memory = stageMemory(s.from(), s.to());
      for (String g : s.gpus()) {
        fits &= memory <= problem.state().freeMemoryBytes(g);
      }
      Rational compute = Rational.of(stageNanos(s.from(), s.to(), type));
      Rational load = compute.dividedBy(Rational.of(s.gpus().size()));
      Rational in = i > 0 ? out[i - 1] : Rational.ZERO;
      if (mode == TransferMode.SERIAL) {
        load = load.plus(in).plus(out[i]);
      } else {
        period = period.max(out[i]);
      }
      period = period.max(load);
      latency = latency.plus(compute).plus(out[i]);
    }
    return new Evaluation(period, latency, fits);
  }

  boolean meetsSlo(Evaluation e) {
    boolean throughput = e.periodNanos().signum() == 0
        || minThroughputPerNano.times(e.periodNanos()).compareTo(Rational.of(batch)) <= 0;
    return throughput && e.latencyNanos().compareTo(maxLatencyNanos) <= 0;
  }

  /** Whether a plan's stages are a valid placement on free GPUs that meets memory and the SLO exactly. */
  boolean accepts(List<StageAssignment> stages) {
    if (stages.size() > problem.request().maxStages()) {
      return false;
    }
    Set<String> seen = new HashSet<>();
    int expected = 0;
    for (StageAssignment s : stages) {
      if (s.from() != expected || !(s.placement() instanceof Whole)) {
        return false;
      }
      expected = s.to();
      String type = cluster.gpu(s.gpus().get(0)).type();
      for (String g : s.gpus()) {
        if (!seen.add(g) || !problem.state().isFree(g) || !cluster.gpu(g).type().equals(type)) {
          return false;
        }
      }
    }
    if (expected != model.size()) {
      return false;
    }
    Evaluation e = evaluate(stages);
    return e.fitsMemory() && meetsSlo(e);
  }

  private void search(int from, int usedMask, Rational partialCost, long partialCompute, List<StageAssignment> stages) {
    if (from == model.size()) {
      placementsChecked++;
      Evaluation e = evaluate(stages);
      if (e.fitsMemory() && meetsSlo(e) && (best == null || partialCost.compareTo(best.cost()) < 0)) {
        best = new Optimum(partialCost, List.copyOf(stages));
      }
      return;
    }
    if (stages.size() == problem.request().maxStages()) {
      return;
    }
    for (int to = from + 1; to <= model.size(); to++) {
      long memory = stageMemory(from, to);
      for (GpuType type : cluster.gpuTypes()) {
        int typeMask = 0;
        for (int g = 0; g < free.size(); g++) {
          if (free.get(g).type().equals(type.name()) && (usedMask & (1 << g)) == 0
              && memory <= problem.state().freeMemoryBytes(free.get(g).id())) {
            typeMask |= 1 << g;
          }
        }
        if (typeMask == 0) {
          continue;
        }
        long compute = stageNanos(from, to, type);
        if (waitNanos.plus(Rational.of(partialCompute + compute)).compareTo(maxLatencyNanos) > 0) {
          continue;
        }
        for (int subset = typeMask; subset != 0; subset = (subset - 1) & typeMask) {
          int r = Integer.bitCount(subset);
          if (minThroughputPerNano.times(Rational.of(compute, r)).compareTo(Rational.of(batch)) > 0) {
            continue; // its own T/r already breaks the period, in every transfer mode
          }
          Rational c = partialCost;
          List<String> gpus = new ArrayList<>();
          for (int g = 0; g < free.size(); g++) {
            if ((subset & (1 << g)) != 0) {
              gpus.add(free.get(g).id());
              c = c.plus(cost[g]);
            }
          }
          if (best != null && c.compareTo(best.cost()) >= 0) {
            continue;
          }
          stages.add(StageAssignment.whole(from, to, gpus));
          search(to, usedMask | subset, c, partialCompute + compute, stages);
          stages.remove(stages.size() - 1);
        }
      }
    }
  }
}
