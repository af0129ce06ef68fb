package org.rampa.kubernetes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.rampa.kubernetes.KubeFixtures.bound;
import static org.rampa.kubernetes.KubeFixtures.gpuNode;
import static org.rampa.kubernetes.KubeFixtures.plainGpuPod;
import static org.rampa.kubernetes.KubeFixtures.rampaPod;
import static org.rampa.kubernetes.KubeFixtures.service;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.time.Duration;
import java.util.List;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.rampa.domain.ClusterState;

/**
 * The informer source against fabric8's mock API server (CRUD mode: it stores what is created and
 * streams watch events): the ledger is rebuilt from the lists at start, as after a restart, and
 * follows node and pod events afterwards.
 */
@EnableKubernetesMockClient(crud = true)
class Fabric8ClusterSourceTest {

  static KubernetesMockServer server;
  static KubernetesClient client;

  /** Waits for the informer's asynchronous events; fails with {@code what} when they never come. */
  private static void eventually(String what, BooleanSupplier condition) throws InterruptedException {
    for (int i = 0; i < 400 && !condition.getAsBoolean(); i++) {
      Thread.sleep(50);
    }
    assertThat(condition.getAsBoolean()).as(what).isTrue();
  }

  @Test
  void rebuildsTheLedgerFromTheListsThenFollowsEvents() throws Exception {
    client.nodes().resource(gpuNode("t4-a", "Tesla-T4", 2, 15360)).create();
    client.nodes().resource(gpuNode("a10-a", "NVIDIA-A10", 1, 23028)).create();
    // GPUs already in use when the extender starts: a plain job, and a stage of a RAMPA service planned before a restart
    client.pods().inNamespace("default").resource(bound(plainGpuPod("job", "nvidia.com/gpu", 1), "t4-a")).create();
    client.pods().inNamespace("inference").resource(bound(
        rampaPod("chat", 0, 0, service("llama2-7b", 1, 5000, 2), "nvidia.com/gpu"), "a10-a")).create();
    client.pods().inNamespace("default").resource(plainGpuPod("pending", "nvidia.com/gpu", 1)).create();

    GangScheduler scheduler = KubeFixtures.scheduler(new KubeFixtures.ManualClock(), Duration.ofMinutes(2));
    try (Fabric8ClusterSource source = new Fabric8ClusterSource(client)) {
      source.start(scheduler);

      ClusterState ledger = scheduler.ledger().orElseThrow();
      assertThat(ledger.cluster().gpus()).hasSize(3);
      assertThat(ledger.servicesOn("t4-a/gpu0")).containsExactly("pods@t4-a");
      assertThat(ledger.isFree("t4-a/gpu1")).isTrue();
      assertThat(ledger.servicesOn("a10-a/gpu0")).containsExactly("pods@a10-a");
      assertThat(ledger.capacity().count()).isEqualTo(1);

      client.nodes().resource(gpuNode("l4-a", "NVIDIA-L4", 4, 23034)).create();
      eventually("the new node's 4 GPUs join the ledger",
          () -> scheduler.ledger().orElseThrow().capacity().count() == 5);

      client.pods().inNamespace("default").withName("job").delete();
      eventually("the deleted job's GPU is free again",
          () -> scheduler.ledger().orElseThrow().isFree("t4-a/gpu0"));

      client.nodes().withName("l4-a").delete();
      eventually("the removed node leaves the ledger",
          () -> scheduler.ledger().orElseThrow().cluster().gpus().size() == 3);

      // a pod binding later (kube-scheduler's bind, seen by the watch) holds its GPU from then on
      client.pods().inNamespace("default").resource(bound(plainGpuPod("late", "nvidia.com/gpu", 1), "t4-a")).create();
      eventually("the newly bound pod holds a T4",
          () -> scheduler.ledger().orElseThrow().servicesOn("t4-a/gpu0").equals(List.of("pods@t4-a")));
    }
  }
}
