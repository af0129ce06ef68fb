package org.rampa.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.rampa.kubernetes.KubeFixtures.bound;
import static org.rampa.kubernetes.KubeFixtures.gpuNode;
import static org.rampa.kubernetes.KubeFixtures.nodeInfo;
import static org.rampa.kubernetes.KubeFixtures.podInfo;
import static org.rampa.kubernetes.KubeFixtures.rampaPod;
import static org.rampa.kubernetes.KubeFixtures.service;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.rampa.domain.share.MigSlice;

/** MIG: a service whose pods ask for {@code nvidia.com/mig-3g.40gb} is placed on free 3g.40gb instances only. */
class MigPlacementTest {

  private final List<String> names = List.of("mig-a", "t4-a", "a100-whole");
  private GangScheduler scheduler;

  @BeforeEach
  void nodes() {
    scheduler = KubeFixtures.scheduler(new KubeFixtures.ManualClock(), Duration.ofMinutes(2));
    // one A100 split into two 3g.40gb instances ("mixed" strategy: no whole nvidia.com/gpu left)
    scheduler.upsertNode(nodeInfo(gpuNode("mig-a", "NVIDIA-A100-SXM4-80GB", 1, 81920, 0, Map.of("3g.40gb", 2))));
    scheduler.upsertNode(nodeInfo(gpuNode("t4-a", "Tesla-T4", 1, 15360)));
    scheduler.upsertNode(nodeInfo(gpuNode("a100-whole", "NVIDIA-A100-SXM4-80GB", 1, 81920)));
  }

  private static Pod migPod(String service) {
    return rampaPod(service, 0, 0, service("resnet50", 50, 500, 1), "nvidia.com/mig-3g.40gb");
  }

  @Test
  void aServiceThatFitsA3gInstanceIsFilteredToTheNodeAdvertisingAFreeOne() {
    GangScheduler.FilterDecision d = scheduler.filter(podInfo(migPod("vision")), names);

    assertThat(d.passed()).containsExactly("mig-a");
    Reservation.Slot slot = scheduler.reservations().get("inference/vision").slot(0, 0).orElseThrow();
    assertThat(slot.gpu()).isEqualTo("mig-a/gpu0");
    assertThat(slot.placement()).isInstanceOf(MigSlice.class);
    assertThat(((MigSlice) slot.placement()).profile()).isEqualTo("3g.40gb");
    assertThat(d.failed().get("t4-a")).contains("reserved on node mig-a (GPU mig-a/gpu0, 3g.40gb@");
  }

  @Test
  void twoServicesTakeTheTwoInstancesAndAThirdIsToldNoneIsFree() {
    scheduler.filter(podInfo(migPod("one")), names);
    scheduler.filter(podInfo(migPod("two")), names);
    GangScheduler.FilterDecision third = scheduler.filter(podInfo(migPod("three")), names);

    MigSlice a = (MigSlice) scheduler.reservations().get("inference/one").slot(0, 0).orElseThrow().placement();
    MigSlice b = (MigSlice) scheduler.reservations().get("inference/two").slot(0, 0).orElseThrow().placement();
    assertThat(a.start()).isNotEqualTo(b.start());
    assertThat(third.passed()).isEmpty();
    assertThat(third.failed().get("mig-a")).isEqualTo("RAMPA INFEASIBLE (greedy): no node advertises a free "
        + "nvidia.com/mig-3g.40gb instance that no other service holds");
    // a plain pod asking for the profile is kept off the node as well
    GangScheduler.FilterDecision plain = scheduler.filter(podInfo(KubeFixtures.plainGpuPod("job", "nvidia.com/mig-3g.40gb", 1)), names);
    assertThat(plain.failed().get("mig-a")).isEqualTo("1 nvidia.com/mig-3g.40gb wanted, 0 free "
        + "(reserved by RAMPA services [inference/one, inference/two])");
  }

  @Test
  void anInstanceUsedByABoundForeignPodIsNotPlanned() {
    scheduler.upsertPod(podInfo(bound(KubeFixtures.plainGpuPod("job", "nvidia.com/mig-3g.40gb", 1), "mig-a")));

    scheduler.filter(podInfo(migPod("one")), names);
    GangScheduler.FilterDecision second = scheduler.filter(podInfo(migPod("two")), names);

    assertThat(scheduler.reservations()).containsOnlyKeys("inference/one");
    assertThat(second.failed().get("mig-a")).startsWith("RAMPA INFEASIBLE");
  }

  @Test
  void aWholeGpuServiceNeverLandsOnAMigInstance() {
    GangScheduler.FilterDecision d = scheduler.filter(podInfo(
        rampaPod("vision", 0, 0, service("resnet50", 50, 500, 1), "nvidia.com/gpu")), names);

    assertThat(d.passed()).containsExactly("t4-a");
  }
}
