package org.rampa.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeList;
import io.fabric8.kubernetes.api.model.NodeListBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rampa.catalog.ClusterPresets;
import org.rampa.heuristics.importance.ImportanceModels;

/** Real v1.Node and v1.Pod objects (fabric8's model types) and their JSON, as the API server and kube-scheduler send them. */
final class KubeFixtures {

  static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  static final ObjectMapper JSON = new ObjectMapper();

  private KubeFixtures() {}

  /** A GPU node as GPU feature discovery and the device plugin describe it. */
  static Node gpuNode(String name, String product, int count, long memoryMiB, int wholeAllocatable, Map<String, Integer> mig) {
    Map<String, Quantity> allocatable = new LinkedHashMap<>();
    allocatable.put("cpu", new Quantity("64"));
    allocatable.put("memory", new Quantity("512Gi"));
    allocatable.put("nvidia.com/gpu", new Quantity(Integer.toString(wholeAllocatable)));
    mig.forEach((profile, n) -> allocatable.put("nvidia.com/mig-" + profile, new Quantity(Integer.toString(n))));
    return new NodeBuilder()
        .withNewMetadata().withName(name)
          .addToLabels("kubernetes.io/hostname", name)
          .addToLabels("nvidia.com/gpu.product", product)
          .addToLabels("nvidia.com/gpu.count", Integer.toString(count))
          .addToLabels("nvidia.com/gpu.memory", Long.toString(memoryMiB))
        .endMetadata()
        .withNewStatus().withAllocatable(allocatable).withCapacity(allocatable).endStatus()
        .build();
  }

  static Node gpuNode(String name, String product, int count, long memoryMiB) {
    return gpuNode(name, product, count, memoryMiB, count, Map.of());
  }

  static Node cpuNode(String name) {
    return new NodeBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewStatus().addToAllocatable("cpu", new Quantity("32")).endStatus().build();
  }

  /** A pod of RAMPA service {@code service}: stage, replica, the service annotations, one {@code resource}. */
  static Pod rampaPod(String service, int stage, int replica, Map<String, String> annotations, String resource) {
    return new PodBuilder()
        .withNewMetadata().withName(service + "-" + stage + "-" + replica).withNamespace("inference")
          .withUid("uid-" + service + "-" + stage + "-" + replica)
          .addToLabels(PodContract.SERVICE, service)
          .addToLabels(PodContract.STAGE, Integer.toString(stage))
          .addToLabels(PodContract.REPLICA, Integer.toString(replica))
          .addToAnnotations(annotations)
        .endMetadata()
        .withNewSpec().addNewContainer().withName("server").withImage("vllm/vllm-openai:latest")
          .withNewResources().addToLimits(resource, new Quantity("1")).endResources()
        .endContainer().endSpec()
        .withNewStatus().withPhase("Pending").endStatus()
        .build();
  }

  /** A pod that is no RAMPA pod and asks for {@code count} of {@code resource}. */
  static Pod plainGpuPod(String name, String resource, int count) {
    return new PodBuilder()
        .withNewMetadata().withName(name).withNamespace("default").withUid("uid-" + name).endMetadata()
        .withNewSpec().addNewContainer().withName("main").withImage("cuda:12")
          .withNewResources().addToLimits(resource, new Quantity(Integer.toString(count))).endResources()
        .endContainer().endSpec()
        .withNewStatus().withPhase("Pending").endStatus()
        .build();
  }

  /** {@code pod} bound to {@code node} and running, as the watch reports it after kube-scheduler's bind. */
  static Pod bound(Pod pod, String node) {
    return new PodBuilder(pod).editSpec().withNodeName(node).endSpec().editStatus().withPhase("Running").endStatus().build();
  }

  static Map<String, String> service(String model, double throughput, long latencyMs, int maxStages) {
    Map<String, String> a = new LinkedHashMap<>();
    a.put(PodContract.MODEL, model);
    a.put(PodContract.THROUGHPUT, Double.toString(throughput));
    a.put(PodContract.LATENCY_MS, Long.toString(latencyMs));
    a.put(PodContract.MAX_STAGES, Integer.toString(maxStages));
    return a;
  }

  static NodeList nodeList(List<Node> nodes) {
    return new NodeListBuilder().withNewMetadata().withResourceVersion("4242").endMetadata().withItems(nodes).build();
  }

  static JsonNode tree(Object fabric8Object) {
    try {
      return JSON.readTree(SERIALIZATION.asJson(fabric8Object));
    } catch (java.io.IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static NodeInfo nodeInfo(Node node) {
    return KubeJson.node(tree(node), "node");
  }

  static PodInfo podInfo(Pod pod) {
    return KubeJson.pod(tree(pod), "pod");
  }

  /** A clock the test moves by hand. */
  static final class ManualClock extends Clock {
    private volatile Instant now = Instant.parse("2026-12-01T12:00:00Z");

    void advance(Duration d) {
      now = now.plus(d);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public java.time.ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(java.time.ZoneId zone) {
      return this;
    }
  }

  static GangScheduler scheduler(Clock clock, Duration ttl) {
    return new GangScheduler(new GangScheduler.Config("greedy", Duration.ofSeconds(2), ttl, GpuProducts.standard(),
        ClusterPresets.NETWORK_100G, ImportanceModels.capability(), clock));
  }
}
