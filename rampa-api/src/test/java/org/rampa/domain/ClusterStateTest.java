package org.rampa.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.rampa.domain.share.MpsShare;
import org.rampa.domain.share.Placement;
import org.rampa.domain.share.Whole;
import org.rampa.testing.Property;
import org.rampa.testing.RandomInstances;

class ClusterStateTest {

  /** A plan holding {@code share} of each GPU: whole at 1, else an MPS share reserving {@code memory}. */
  static Plan hold(String service, double share, long memory, String... gpus) {
    var plan = Plan.builder().serviceId(service).period(Duration.ZERO).throughput(0).latency(Duration.ZERO);
    for (String g : gpus) {
      plan.addStages(Stage.builder().from(0).to(1).addGpus(g).placement(placement(share, memory)).computeTime(Duration.ZERO).memoryBytes(memory).build());
    }
    return plan.build();
  }

  static Placement placement(double share, long memory) {
    return share == 1.0 ? new Whole() : new MpsShare(share, memory);
  }

  private static Cluster cluster(long seed) {
    return new RandomInstances(seed).cluster(4, 4, 3);
  }

  @Test
  void allocateAndReleaseKeepTheLedgerConsistent() {
    Property.forSeeds("allocate/release invariants", 100, seed -> {
      RandomInstances gen = new RandomInstances(seed);
      Cluster c = cluster(seed);
      ClusterState state = ClusterState.empty(c);
      Map<String, List<String>> held = new HashMap<>();
      for (int step = 0; step < 40; step++) {
        if (!held.isEmpty() && gen.random().nextInt(3) == 0) {
          String victim = new ArrayList<>(held.keySet()).get(gen.random().nextInt(held.size()));
          ClusterState after = state.release(victim);
          assertThat(after.version()).isEqualTo(state.version() + 1);
          held.get(victim).forEach(g -> assertThat(after.isFree(g)).isTrue());
          held.remove(victim);
          state = after;
          continue;
        }
        List<Gpu> gpus = new ArrayList<>(c.gpus());
        Collections.shuffle(gpus, new java.util.Random(gen.random().nextLong()));
        List<String> pick = gpus.subList(0, 1 + gen.random().nextInt(Math.min(3, gpus.size()))).stream().map(Gpu::id).toList();
        Plan plan = hold("svc" + step, 1.0, 1, pick.toArray(String[]::new));
        boolean free = pick.stream().allMatch(state::isFree);
        if (free) {
          ClusterState after = state.allocate(plan);
          pick.forEach(g -> assertThat(after.isFree(g)).isFalse());
          assertThat(state.allocations()).doesNotContainKey(plan.serviceId()); // the old state is untouched
          held.put(plan.serviceId(), pick);
          state = after;
        } else {
          ClusterState before = state;
          assertThatThrownBy(() -> before.allocate(plan)).isInstanceOf(AllocationRefusedException.class);
          assertThat(before.allocations()).doesNotContainKey(plan.serviceId());
        }
        // no GPU is ever held by two services
        Map<String, String> owner = new HashMap<>();
        for (Allocation a : state.allocations().values()) {
          for (Holding h : a.holdings()) {
            assertThat(owner.put(h.gpu(), a.serviceId())).as("GPU %s double-booked", h.gpu()).isNull();
          }
        }
        assertThat(state.freeGpus().size() + owner.size()).isEqualTo(c.gpus().size());
      }
    });
  }

  @Test
  void refusedAllocationIsRefusedWholeAndNamesTheConflict() {
    Cluster c = cluster(1);
    String a = c.gpus().get(0).id();
    String b = c.gpus().get(1).id();
    ClusterState state = ClusterState.empty(c).allocate(hold("first", 1.0, 1, a));
    assertThatThrownBy(() -> state.allocate(hold("second", 1.0, 1, b, a)))
        .isInstanceOf(AllocationRefusedException.class)
        .hasMessageContaining("GPU \"" + a + "\"").hasMessageContaining("nothing was applied");
    assertThat(state.isFree(b)).isTrue();
  }

  @Test
  void sharesAndMemoryMayBeSplitButNotOvercommitted() {
    Cluster c = cluster(2);
    String g = c.gpus().get(0).id();
    long memory = c.typeOf(g).memoryBytes();
    ClusterState s = ClusterState.empty(c).allocate(hold("a", 0.5, memory / 2, g)).allocate(hold("b", 0.5, memory / 2, g));
    assertThat(s.freeShare(g)).isZero();
    assertThatThrownBy(() -> s.allocate(hold("c", 0.1, 0, g))).hasMessageContaining("held already");
    ClusterState t = ClusterState.empty(c).allocate(hold("a", 0.3, memory, g));
    assertThatThrownBy(() -> t.allocate(hold("b", 0.3, 1, g))).hasMessageContaining("memory");
  }

  @Test
  void allocateAllAppliesEveryPlanOrNone() {
    Cluster c = cluster(5);
    String a = c.gpus().get(0).id();
    String b = c.gpus().get(1).id();
    ClusterState both = ClusterState.empty(c).allocateAll(List.of(hold("x", 1.0, 1, a), hold("y", 1.0, 1, b)));
    assertThat(both.allocations()).containsOnlyKeys("x", "y");
    assertThat(both.version()).isEqualTo(1);
    ClusterState empty = ClusterState.empty(c);
    assertThatThrownBy(() -> empty.allocateAll(List.of(hold("x", 1.0, 1, a), hold("y", 1.0, 1, a))))
        .isInstanceOf(AllocationRefusedException.class).hasMessageContaining("\"y\"").hasMessageContaining(a);
    assertThatThrownBy(() -> both.allocateAll(List.of(hold("x", 1.0, 1, c.gpus().get(2).id()))))
        .isInstanceOf(AllocationRefusedException.class).hasMessageContaining("already holds");
  }

  @Test
  void releasingAnUnknownServiceIsAClearError() {
    ClusterState s = ClusterState.empty(cluster(3));
    assertThatThrownBy(() -> s.release("ghost"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("serviceId = ghost").hasMessageContaining("Maybe");
  }

  @Test
  void concurrentConflictingCommitsNeverDoubleBookAGpu() throws Exception {
    Cluster c = new RandomInstances(11).cluster(6, 4, 3);
    ClusterStateHolder holder = new ClusterStateHolder(ClusterState.empty(c));
    int threads = 8;
    int attemptsPerThread = 300;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    AtomicInteger committed = new AtomicInteger();
    AtomicInteger stale = new AtomicInteger();
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      futures.add(pool.submit(() -> {
        java.util.Random rnd = new java.util.Random(thread);
        start.await();
        for (int i = 0; i < attemptsPerThread; i++) {
          ClusterState snapshot = holder.current();
          String id = "t" + thread + "-" + i;
          if (!snapshot.allocations().isEmpty() && rnd.nextInt(3) == 0) {
            String victim = snapshot.allocations().keySet().iterator().next();
            holder.release(victim, snapshot.version());
            continue;
          }
          List<Gpu> free = snapshot.freeGpus();
          if (free.isEmpty()) {
            continue;
          }
          // everyone prefers the same first free GPUs: maximal contention
          Plan plan = hold(id, 1.0, 1, free.get(0).id(), free.get(free.size() - 1).id());
          ClusterStateHolder.CommitResult r = holder.commit(plan, snapshot.version());
          (r.outcome() == ClusterStateHolder.Outcome.COMMITTED ? committed : stale).incrementAndGet();
        }
        return null;
      }));
    }
    start.countDown();
    for (Future<?> f : futures) {
      f.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();
    ClusterState end = holder.current();
    Map<String, String> owner = new HashMap<>();
    for (Allocation a : end.allocations().values()) {
      for (Holding h : a.holdings()) {
        assertThat(owner.put(h.gpu(), a.serviceId())).as("GPU %s double-booked", h.gpu()).isNull();
      }
    }
    assertThat(committed.get()).isPositive();
    System.out.printf("concurrency: %d commits, %d refused as stale or conflicting, final version %d%n", committed.get(), stale.get(), end.version());
  }

  @Test
  void aStaleCommitIsRefusedAndNeverAppliedTwice() {
    Cluster c = cluster(4);
    ClusterStateHolder holder = new ClusterStateHolder(ClusterState.empty(c));
    Plan plan = hold("svc", 1.0, 1, c.gpus().get(0).id());
    assertThat(holder.commit(plan, 0).outcome()).isEqualTo(ClusterStateHolder.Outcome.COMMITTED);
    ClusterStateHolder.CommitResult again = holder.commit(plan, 0);
    assertThat(again.outcome()).isEqualTo(ClusterStateHolder.Outcome.STALE);
    assertThat(again.reasons().get(0)).contains("planned on version 0").contains("version 1");
    assertThat(holder.current().allocations()).hasSize(1);
    assertThat(holder.commit(plan, 1).outcome()).isEqualTo(ClusterStateHolder.Outcome.REFUSED);
  }
}
