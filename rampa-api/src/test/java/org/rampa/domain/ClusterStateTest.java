package org.rampa.domain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.rampa.catalog.ClusterPresets;
import org.rampa.domain.share.GpuPartitioning;
import org.rampa.domain.share.MigSlice;
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

  static Plan hold(String service, Placement placement, long memory, String gpu) {
    return Plan.builder().serviceId(service).period(Duration.ZERO).throughput(0).latency(Duration.ZERO)
        .addStages(Stage.builder().from(0).to(1).addGpus(gpu).placement(placement).computeTime(Duration.ZERO).memoryBytes(memory).build())
        .build();
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
  void mpsSharesAndMemoryMayBeSplitButNotOvercommitted() {
    Cluster c = a100s(1, 1);
    String g = c.gpus().get(0).id();
    long overhead = GpuPartitioning.DEFAULT_MPS_PROCESS_OVERHEAD_BYTES;
    long card = c.typeOf(g).memoryBytes();
    // two reservations leave room for a third client's context, but not for more memory
    long half = card / 2 - 2 * overhead;
    ClusterState s = ClusterState.empty(c).allocate(hold("a", 0.5, half, g)).allocate(hold("b", 0.5, half, g));
    assertThat(s.freeShare(g)).isZero();
    assertThat(s.mode(g)).isEqualTo(GpuMode.MPS);
    assertThatThrownBy(() -> s.allocate(hold("c", 0.1, 0, g))).hasMessageContaining("COMPUTE_SUM").hasMessageContaining("[a, b]");
    ClusterState t = ClusterState.empty(c).allocate(hold("a", 0.3, half, g));
    assertThatThrownBy(() -> t.allocate(hold("b", 0.3, card / 2 + 1, g))).hasMessageContaining("CARD_MEMORY");
    assertThat(s.mpsFaultDomains()).containsExactly(Map.entry(g, List.of("a", "b")));
    assertThat(ClusterState.empty(c).allocate(hold("a", 0.5, half, g)).mpsFaultDomains()).isEmpty();
    ClusterState loose = ImmutableClusterState.copyOf(s).withMpsOvercommit(0.2);
    assertThat(loose.allocate(hold("c", 0.1, 0, g)).holdingsOn(g)).hasSize(3);
  }

  @Test
  void aModeOrLayoutChangesOnlyOnAnEmptyGpuAndRefusalsChangeNothing() {
    Cluster c = a100s(1, 2);
    String g = c.gpus().get(0).id();
    ClusterState mps = ClusterState.empty(c).allocate(hold("a", 0.5, 1, g));
    assertThatThrownBy(() -> mps.allocate(hold("w", 1.0, 1, g))).hasMessageContaining("MODE");
    assertThatThrownBy(() -> mps.configureMig(g, List.of(new MigSlice("7g.80gb", 0))))
        .hasMessageContaining("RECONFIGURATION").hasMessageContaining("[a]");
    List<MigSlice> layout = List.of(new MigSlice("3g.40gb", 0), new MigSlice("3g.40gb", 4));
    ClusterState mig = ClusterState.empty(c).configureMig(g, layout);
    Allocation slice = Allocation.of("s", List.of(Holding.of(g, new MigSlice("3g.40gb", 4), 10L << 30)));
    ClusterState one = mig.allocate(slice);
    assertThatThrownBy(() -> one.allocate(Allocation.of("t", List.of(Holding.of(g, new MigSlice("3g.40gb", 4), 1)))))
        .hasMessageContaining("MIG_INSTANCE").hasMessageContaining("held twice");
    assertThatThrownBy(() -> one.allocate(Allocation.of("t", List.of(Holding.of(g, new MigSlice("1g.10gb", 0), 1)))))
        .hasMessageContaining("MIG_INSTANCE").hasMessageContaining("not an instance");
    assertThatThrownBy(() -> one.allocate(Allocation.of("t", List.of(Holding.of(g, new MigSlice("3g.40gb", 0), 41L << 30)))))
        .hasMessageContaining("HOLDING_MEMORY");
    assertThatThrownBy(() -> one.allocate(hold("m", 0.5, 1, g))).hasMessageContaining("MODE");
    assertThatThrownBy(() -> ClusterState.empty(c).configureMig(g, List.of(new MigSlice("3g.40gb", 0), new MigSlice("4g.40gb", 0))))
        .hasMessageContaining("MIG_OVERLAP");
    assertThat(one.allocations()).containsOnlyKeys("s");
    assertThat(one.release("s").configureMig(g, List.of()).mode(g)).isEqualTo(GpuMode.FREE);
  }

  @Test
  void aDocumentsLedgerIsCheckedByTheSameRules() {
    Cluster c = a100s(1, 1);
    String g = c.gpus().get(0).id();
    assertThatThrownBy(() -> ImmutableClusterState.builder().cluster(c).migLayouts(Map.of(g, List.of(new MigSlice("1g.10gb", 7)))).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("migLayouts[" + g + "]").hasMessageContaining("MIG_START");
    assertThatThrownBy(() -> ImmutableClusterState.builder().cluster(c).allocations(Map.of(
            "a", Allocation.of("a", List.of(Holding.of(g, new MpsShare(0.7, 0), 0))),
            "b", Allocation.of("b", List.of(Holding.of(g, new MpsShare(0.7, 0), 0))))).build())
        .hasMessageContaining("COMPUTE_SUM");
    Map<String, Allocation> withNull = new java.util.HashMap<>();
    withNull.put("a", null);
    assertThatThrownBy(() -> ImmutableClusterState.builder().cluster(c).allocations(withNull).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("clusterState.allocations[a]").hasMessageContaining("must not be null");
  }

  static Cluster a100s(int nodes, int gpusPerNode) {
    return ClusterPresets.of(Map.of("A100-SXM4-80GB", nodes), gpusPerNode, ClusterPresets.NETWORK_100G);
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
  void concurrentCommitsOnSharedGpusNeverOvercommitAndNeverApplyAStalePlan() throws Exception {
    Cluster c = a100s(1, 4);
    String mig = c.gpus().get(2).id();
    List<MigSlice> sevenSlices = new ArrayList<>();
    for (int start = 0; start < 7; start++) {
      sevenSlices.add(new MigSlice("1g.10gb", start));
    }
    ClusterStateHolder holder = new ClusterStateHolder(ClusterState.empty(c).configureMig(mig, sevenSlices));
    List<String> mpsGpus = List.of(c.gpus().get(0).id(), c.gpus().get(1).id());
    double[] menu = {0.1, 0.2, 0.3, 0.5};
    int threads = 8;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CountDownLatch start = new CountDownLatch(1);
    Set<Long> committedOn = java.util.concurrent.ConcurrentHashMap.newKeySet();
    AtomicInteger committed = new AtomicInteger();
    AtomicInteger duplicateVersions = new AtomicInteger();
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      futures.add(pool.submit(() -> {
        java.util.Random rnd = new java.util.Random(1000 + thread);
        start.await();
        for (int i = 0; i < 300; i++) {
          ClusterState snapshot = holder.current();
          if (!snapshot.allocations().isEmpty() && rnd.nextInt(4) == 0) {
            List<String> ids = new ArrayList<>(snapshot.allocations().keySet());
            holder.release(ids.get(rnd.nextInt(ids.size())), snapshot.version());
            continue;
          }
          String id = "t" + thread + "-" + i;
          Plan plan = rnd.nextBoolean()
              ? hold(id, new MpsShare(menu[rnd.nextInt(menu.length)], 1L << 30), 1L << 30, mpsGpus.get(rnd.nextInt(2)))
              : hold(id, sevenSlices.get(rnd.nextInt(7)), 1L << 30, mig);
          ClusterStateHolder.CommitResult r = holder.commit(plan, snapshot.version());
          if (r.outcome() == ClusterStateHolder.Outcome.COMMITTED) {
            committed.incrementAndGet();
            if (!committedOn.add(snapshot.version())) {
              duplicateVersions.incrementAndGet();
            }
          }
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
    assertThat(duplicateVersions.get()).as("two commits planned on one version").isZero();
    for (String g : mpsGpus) {
      double sum = end.holdingsOn(g).stream().mapToDouble(h -> ((MpsShare) h.placement()).fraction()).sum();
      assertThat(sum).as("MPS compute on %s", g).isLessThanOrEqualTo(1 + 1e-9);
    }
    List<Placement> slices = end.holdingsOn(mig).stream().map(Holding::placement).toList();
    assertThat(slices).as("MIG instances held once").doesNotHaveDuplicates();
    // the final ledger passes every rule when built afresh, as a document read back would be
    assertThat(ImmutableClusterState.builder().from(end).build().allocations()).isEqualTo(end.allocations());
    assertThat(committed.get()).isPositive();
    System.out.printf("shared concurrency: %d commits, final version %d, %d services on 3 shared GPUs%n",
        committed.get(), end.version(), end.allocations().size());
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

  @Test
  void holdingsWithoutAPlanAreVersionedAndCheckedLikeAPlan() {
    Cluster c = cluster(4);
    ClusterStateHolder holder = new ClusterStateHolder(ClusterState.empty(c));
    String gpu = c.gpus().get(0).id();
    Allocation other = Allocation.of("other-scheduler", List.of(Holding.whole(gpu, 1L << 30)));
    assertThat(holder.hold(other, 1).outcome()).isEqualTo(ClusterStateHolder.Outcome.STALE);
    assertThat(holder.hold(other, 0).outcome()).isEqualTo(ClusterStateHolder.Outcome.COMMITTED);
    assertThat(holder.current().isFree(gpu)).isFalse();
    // the GPU is taken: a plan on it and a second holding are refused, and nothing changes
    assertThat(holder.commit(hold("svc", 1.0, 1, gpu), 1).outcome()).isEqualTo(ClusterStateHolder.Outcome.REFUSED);
    ClusterStateHolder.CommitResult twice = holder.hold(Allocation.of("again", List.of(Holding.whole(gpu, 1L << 30))), 1);
    assertThat(twice.outcome()).isEqualTo(ClusterStateHolder.Outcome.REFUSED);
    assertThat(twice.reasons()).singleElement().asString().contains(gpu);
    assertThat(holder.release("other-scheduler", 1).outcome()).isEqualTo(ClusterStateHolder.Outcome.COMMITTED);
    assertThat(holder.current().isFree(gpu)).isTrue();
  }
}
