package org.rampa.heuristics.colocation;

import java.util.List;
import java.util.Optional;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;
import org.rampa.domain.share.MigProfile;

/**
 * Uniform MIG: every GPU cut into instances of one size ({@code computeSlices}g, the smallest-memory
 * profile of that size: all 1g gives seven instances, all 3g two), one process per instance at the
 * service's best batch under the SLO rule, instances of different services sharing GPUs. A cluster
 * without MIG (NPU templates, MPS only) is refused with the reason.
 */
final class UniformMigBaseline extends PackingPlanner {

  private final int computeSlices;

  UniformMigBaseline(int computeSlices) {
    this.computeSlices = computeSlices;
  }

  @Override
  public String name() {
    return "uniform-mig-" + computeSlices + "g";
  }

  @Override
  boolean shares() {
    return true;
  }

  @Override
  Optional<String> unusableCluster(ColocationProblem problem) {
    if (problem.pools().stream().anyMatch(p -> p.count() > 0 && p.partitioning().mig().isPresent())) {
      return Optional.empty();
    }
    return Optional.of("no GPU type of the cluster " + problem.pools().stream().map(p -> p.count() + " × " + p.type().name()).toList()
        + " has MIG, so there is nothing to cut uniformly into MIG instances (on NPU templates, even-mps-k cuts every card into k equal templates)");
  }

  @Override
  List<SegmentOption> cover(ColocationProblem problem, SegmentMenu menu, ColocationService service, double demand) {
    Optional<SegmentOption> best = Optional.empty();
    for (GpuPool pool : problem.pools()) {
      if (pool.count() == 0 || pool.partitioning().mig().isEmpty()) {
        continue;
      }
      Optional<MigProfile> profile = pool.partitioning().requireMig().profiles().stream()
          .filter(p -> p.computeSlices() == computeSlices)
          .min(java.util.Comparator.comparingInt(MigProfile::memorySlices));
      if (profile.isEmpty()) {
        continue;
      }
      Optional<SegmentOption> o = menu.options(pool.type().name(), service.id()).stream()
          .filter(x -> x.processes() == 1 && profile.get().name().equals(x.profile())).findFirst();
      if (o.isPresent() && (best.isEmpty() || o.get().throughput() > best.get().throughput())) {
        best = o;
      }
    }
    return best.map(o -> ExclusiveBaseline.copies(o, demand)).orElse(List.of());
  }
}
