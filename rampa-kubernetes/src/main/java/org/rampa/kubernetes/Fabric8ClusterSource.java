package org.rampa.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The API-server watch: fabric8 informers on all nodes and on all bound pods (field selector
 * {@code spec.nodeName!=""}), every object read through the same {@link KubeJson} as kube-scheduler's
 * requests. {@link #start} waits until both informers have listed, then replaces the scheduler's
 * inputs with the lists, so a restarted extender sees every GPU already in use.
 */
public final class Fabric8ClusterSource implements ClusterSource {

  private static final Logger LOG = Logger.getLogger(Fabric8ClusterSource.class.getName());

  private final KubernetesClient client;
  private final ObjectMapper json = new ObjectMapper();
  private final List<SharedIndexInformer<?>> informers = new ArrayList<>();

  public Fabric8ClusterSource(KubernetesClient client) {
    this.client = Objects.requireNonNull(client, "client");
  }

  @Override
  public void start(GangScheduler scheduler) {
    SharedIndexInformer<Node> nodes = client.nodes().inform(handler(
        n -> read(n, "node", KubeJson::node).ifPresent(scheduler::upsertNode),
        n -> scheduler.deleteNode(n.getMetadata().getName())));
    SharedIndexInformer<Pod> pods = client.pods().inAnyNamespace().withoutField("spec.nodeName", "").inform(handler(
        p -> read(p, "pod", KubeJson::pod).ifPresent(scheduler::upsertPod),
        p -> scheduler.deletePod(p.getMetadata().getNamespace(), p.getMetadata().getName())));
    informers.add(nodes);
    informers.add(pods);
    // inform() returns once the informer has listed; rebuild from those lists, then events keep it current
    scheduler.replaceAll(
        nodes.getStore().list().stream().flatMap(n -> read(n, "node", KubeJson::node).stream()).toList(),
        pods.getStore().list().stream().flatMap(p -> read(p, "pod", KubeJson::pod).stream()).toList());
  }

  /** {@code object} as the extender reads it; an object it cannot read is logged and skipped, not fatal to the watch. */
  private <T extends HasMetadata, R> java.util.Optional<R> read(T object, String kind,
      java.util.function.BiFunction<JsonNode, String, R> reader) {
    try {
      JsonNode tree = json.readTree(client.getKubernetesSerialization().asJson(object));
      return java.util.Optional.of(reader.apply(tree, kind));
    } catch (BadRequestException | com.fasterxml.jackson.core.JsonProcessingException e) {
      LOG.log(Level.WARNING, "skipping " + kind + " " + object.getMetadata().getName() + ": " + e.getMessage());
      return java.util.Optional.empty();
    }
  }

  private static <T> ResourceEventHandler<T> handler(Consumer<T> upsert, Consumer<T> delete) {
    return new ResourceEventHandler<>() {
      @Override
      public void onAdd(T obj) {
        upsert.accept(obj);
      }

      @Override
      public void onUpdate(T oldObj, T newObj) {
        upsert.accept(newObj);
      }

      @Override
      public void onDelete(T obj, boolean deletedFinalStateUnknown) {
        delete.accept(obj);
      }
    };
  }

  @Override
  public void close() {
    informers.forEach(SharedIndexInformer::close);
    informers.clear();
  }
}
