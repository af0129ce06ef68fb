package org.rampa.heuristics.colocation;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.GpuPool;
import org.rampa.colocation.SegmentMenu;
import org.rampa.colocation.SegmentOption;
import org.rampa.domain.share.MigProfile;

/**
 * Exclusive use: one service per GPU, one process at its best batch under the SLO rule, as many
 * GPUs as its rate needs. The whole GPU when the time model knows its time; on a MIG-mode GPU whose
 * whole-card time is not known (ParvaGPU's tables), the largest instance alone (7g: 98 of 108 SMs
 * on an A100), which is the whole card as a MIG GPU offers it.
 */
final class ExclusiveBaseline extends PackingPlanner {

  @Override
  public String name() {
    return "exclusive";
  }

  @Override
  boolean shares() {
    return false;
  }

  @Override
  List<SegmentOption> cover(ColocationProblem problem, SegmentMenu menu, ColocationService service, double demand) {
    Optional<SegmentOption> best = Optional.empty();
    for (GpuPool pool : problem.pools()) {
      if (pool.count() == 0) {
        continue;
      }
      Optional<SegmentOption> o = aloneOptions(menu, pool, service.id()).stream().findFirst();
      if (o.isPresent() && (best.isEmpty() || o.get().throughput() > best.get().throughput())) {
        best = o;
      }
    }
    return best.map(o -> copies(o, demand)).orElse(List.of());
  }

  /**
   * The options of {@code service} that hold a GPU of {@code pool} alone with one process, best
   * throughput first: the whole GPU; when the time model knows no whole-card time, the largest MIG
   * instance.
   */
  static List<SegmentOption> aloneOptions(SegmentMenu menu, GpuPool pool, String service) {
    String type = pool.type().name();
    List<SegmentOption> whole = single(menu, type, service, null);
    if (!whole.isEmpty() || pool.partitioning().mig().isEmpty()) {
      return whole;
    }
    MigProfile largest = pool.partitioning().requireMig().profiles().stream()
        .max(Comparator.comparingInt(MigProfile::computeSlices).thenComparingInt(MigProfile::memorySlices)).orElseThrow();
    return single(menu, type, service, largest.name());
  }

  private static List<SegmentOption> single(SegmentMenu menu, String type, String service, String profile) {
    return menu.options(type, service).stream().filter(o -> o.processes() == 1 && java.util.Objects.equals(o.profile(), profile)).toList();
  }

  /** Enough copies of {@code o} to serve {@code demand}. */
  static List<SegmentOption> copies(SegmentOption o, double demand) {
    int n = (int) Math.ceil(demand / o.throughput() - 1e-9);
    return new ArrayList<>(Collections.nCopies(Math.max(n, 1), o));
  }
}
