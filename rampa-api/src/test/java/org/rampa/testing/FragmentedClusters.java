package org.rampa.testing;

import java.util.List;
import java.util.SplittableRandom;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.Gpu;
import org.rampa.domain.share.MigSlice;
import org.rampa.domain.share.MpsShare;
import org.rampa.moves.MoveSpace;
import org.rampa.verify.InterferenceGuard;

/**
 * Fragmented shared states for the moves tests and timings: every GPU free, shared by Llama-2-7B
 * decode tenants on MPS shares of 1/4 to 1/2, in a random maximal MIG layout with one instance held,
 * or held whole by a service that cannot be moved (committed without its request).
 */
public final class FragmentedClusters {

  private FragmentedClusters() {}

  /**
   * A fragmented state of {@code cluster}, drawn from {@code r}. Per GPU, out of 10: 2 free, 4 MPS
   * with 1-2 tenants (latency bounds 1.05-2× their time alone), 3 MIG, 1 held whole. When
   * {@code full}, the 2 free become MPS, no GPU is left free (one that would be is held whole) and MPS GPUs take tenants
   * (bounds 1.5-2.5×) until at most a quarter is free or four tenants run.
   */
  public static ClusterState state(Cluster cluster, SplittableRandom r, boolean full) {
    DecodeServices services = new DecodeServices(cluster, "incumbent");
    InterferenceGuard guard = InterferenceGuard.defaults();
    ClusterState state = ClusterState.empty(cluster);
    int n = 0;
    for (Gpu g : cluster.gpus()) {
      int what = r.nextInt(10);
      try {
        if (what < 2 && !full) {
          continue;
        } else if (what < 6) {
          if (full) {
            for (int i = 0; i < 4 && state.freeShare(g.id()) > 0.25 + 1e-9; i++) {
              double share = List.of(0.25, 1.0 / 3, 0.5).get(r.nextInt(3));
              DecodeServices.Admission a = services.service("t" + n++, g.id(), new MpsShare(share, services.memory()), 1.5 + r.nextDouble());
              state = guard.admit(state, a.request(), a.plan());
            }
          } else {
            for (int i = 0, k = 1 + r.nextInt(2); i < k; i++) {
              double share = List.of(0.25, 1.0 / 3, 0.5).get(r.nextInt(3));
              DecodeServices.Admission a = services.service("t" + n++, g.id(), new MpsShare(share, services.memory()), 1.05 + r.nextDouble());
              state = guard.admit(state, a.request(), a.plan());
            }
          }
        } else if (what < 9) {
          List<List<MigSlice>> layouts = MoveSpace.maximalLayouts(state.partitioning(g.id()).requireMig(), List.of());
          List<MigSlice> layout = layouts.get(r.nextInt(layouts.size()));
          state = state.configureMig(g.id(), layout);
          MigSlice slice = layout.get(r.nextInt(layout.size()));
          DecodeServices.Admission a = services.service("t" + n++, g.id(), slice, 1.05 + r.nextDouble());
          state = guard.admit(state, a.request(), a.plan());
        } else {
          state = state.allocate(RandomInstances.holdPlan("hold-" + n++, g.id()));
        }
      } catch (RuntimeException e) {
        // the tenant does not fit there (memory of a small instance, a neighbour's SLO): the GPU keeps what it has
      }
      if (full && state.isFree(g.id())) {
        if (!state.migLayout(g.id()).isEmpty()) {
          state = state.configureMig(g.id(), List.of());
        }
        state = state.allocate(RandomInstances.holdPlan("hold-" + n++, g.id()));
      }
    }
    return state;
  }
}
