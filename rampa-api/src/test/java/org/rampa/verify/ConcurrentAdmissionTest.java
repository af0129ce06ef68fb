package org.rampa.verify;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.Cluster;
import org.rampa.domain.ClusterState;
import org.rampa.domain.ClusterStateHolder;
import org.rampa.domain.share.MpsShare;
import org.rampa.testing.DecodeServices;

/**
 * Many threads admit and release services on three MPS-shared GPUs through
 * {@link ClusterStateHolder#admit}, each with an SLO only a few co-runners leave intact. Whatever
 * the interleaving, no GPU is over-committed and no admitted neighbour ever pushes an incumbent
 * past its SLO. The SLO check here is written out independently of the guard: the default
 * interference is linear, 5 % per co-runner under MPS, on the service's time alone.
 */
class ConcurrentAdmissionTest {

  private static final double GAMMA = 0.05;

  private final Cluster cluster = ClusterPresets.of(Map.of("A100-SXM4-80GB", 3), 4, ClusterPresets.NETWORK_100G);
  private final DecodeServices services = new DecodeServices(cluster, "test");
  private final InterferenceGuard guard = InterferenceGuard.defaults();

  /** Latency alone and bound, per admitted service id. */
  private record Budget(double aloneSeconds, double boundSeconds) {}

  @Test
  void concurrentAdmissionsNeverOvercommitAndNeverBreakAnIncumbentsSlo() throws Exception {
    ClusterStateHolder holder = new ClusterStateHolder(ClusterState.empty(cluster));
    Map<String, Budget> budgets = new ConcurrentHashMap<>();
    double[] shares = {0.1, 0.2, 0.3};
    double[] slacks = {1.04, 1.08, 1.12, 1.3};
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    AtomicInteger admitted = new AtomicInteger();
    AtomicInteger refused = new AtomicInteger();
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      futures.add(pool.submit(() -> {
        SplittableRandom rnd = new SplittableRandom(77 + thread);
        start.await();
        for (int i = 0; i < 150; i++) {
          ClusterState snapshot = holder.current();
          if (!snapshot.allocations().isEmpty() && rnd.nextInt(3) == 0) {
            List<String> ids = new ArrayList<>(snapshot.allocations().keySet());
            holder.release(ids.get(rnd.nextInt(ids.size())), snapshot.version());
            continue;
          }
          String id = "t" + thread + "-" + i;
          String gpu = cluster.gpus().get(rnd.nextInt(cluster.gpus().size())).id();
          DecodeServices.Admission service = services.service(id, gpu,
              new MpsShare(shares[rnd.nextInt(shares.length)], services.memory()), slacks[rnd.nextInt(slacks.length)]);
          budgets.put(id, new Budget(service.aloneSeconds(), service.request().slo().latencyBound().toNanos() / 1e9));
          ClusterStateHolder.CommitResult r = holder.admit(service.request(), service.plan(), snapshot.version(), guard);
          if (r.outcome() == ClusterStateHolder.Outcome.COMMITTED) {
            admitted.incrementAndGet();
            assertEveryServiceMeetsItsSlo(r.state(), budgets);
          } else if (r.outcome() == ClusterStateHolder.Outcome.REFUSED) {
            refused.incrementAndGet();
          }
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> f : futures) {
      f.get(120, TimeUnit.SECONDS);
    }
    pool.shutdown();
    ClusterState end = holder.current();
    assertEveryServiceMeetsItsSlo(end, budgets);
    assertThat(admitted.get()).as("admissions").isPositive();
    assertThat(refused.get()).as("refusals by the guard or the ledger").isPositive();
    System.out.printf("concurrent admission: %d admitted, %d refused, %d services held at the end%n",
        admitted.get(), refused.get(), end.allocations().size());
  }

  private void assertEveryServiceMeetsItsSlo(ClusterState state, Map<String, Budget> budgets) {
    for (var gpu : cluster.gpus()) {
      List<String> services = state.servicesOn(gpu.id());
      double compute = state.holdingsOn(gpu.id()).stream().mapToDouble(h -> ((MpsShare) h.placement()).fraction()).sum();
      assertThat(compute).as("MPS compute on %s", gpu.id()).isLessThanOrEqualTo(1 + 1e-9);
      for (String service : services) {
        Budget b = budgets.get(service);
        double slowed = b.aloneSeconds() * (1 + GAMMA * (services.size() - 1));
        assertThat(slowed).as("%s with %d co-runners on %s", service, services.size() - 1, gpu.id())
            .isLessThanOrEqualTo(b.boundSeconds() * (1 + 1e-6));
      }
    }
  }
}
