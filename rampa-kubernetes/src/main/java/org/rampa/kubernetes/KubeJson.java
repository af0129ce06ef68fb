package org.rampa.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads the parts of v1.Node and v1.Pod JSON the extender needs, naming the field of anything
 * malformed ({@link BadRequestException}). Objects come from kube-scheduler's ExtenderArgs or from
 * the API-server watch, both in the API's own JSON.
 */
public final class KubeJson {

  public static final String GPU = "nvidia.com/gpu";
  public static final String MIG_PREFIX = "nvidia.com/mig-";
  public static final String LABEL_PRODUCT = "nvidia.com/gpu.product";
  public static final String LABEL_COUNT = "nvidia.com/gpu.count";
  public static final String LABEL_MEMORY = "nvidia.com/gpu.memory";

  /** Compiled once: String.matches compiles its pattern at every call, most of the time of reading 1000 nodes. */
  private static final java.util.regex.Pattern COUNT = java.util.regex.Pattern.compile("[0-9]{1,9}");
  private static final java.util.regex.Pattern LABEL_NUMBER = java.util.regex.Pattern.compile("[0-9]{1,12}");

  private KubeJson() {}

  /** The node at {@code field} ("Nodes.items[3]", say). */
  public static NodeInfo node(JsonNode node, String field) {
    requireObject(node, field);
    JsonNode metadata = requireObject(node.get("metadata"), field + ".metadata");
    String name = requireText(metadata.get("name"), field + ".metadata.name");
    Map<String, String> labels = stringMap(metadata.get("labels"), field + ".metadata.labels");
    JsonNode status = optionalObject(node.get("status"), field + ".status");
    Map<String, Integer> allocatable = status == null ? Map.of()
        : gpuQuantities(status.get("allocatable"), field + ".status.allocatable");
    JsonNode spec = optionalObject(node.get("spec"), field + ".spec");
    boolean unschedulable = spec != null && spec.path("unschedulable").asBoolean(false);
    Map<String, Integer> mig = new LinkedHashMap<>();
    allocatable.forEach((resource, n) -> {
      if (resource.startsWith(MIG_PREFIX) && n > 0) {
        mig.put(resource.substring(MIG_PREFIX.length()), n);
      }
    });
    return new NodeInfo(
        name,
        Optional.ofNullable(labels.get(LABEL_PRODUCT)),
        optionalLabelInt(labels, LABEL_COUNT, field).map(Long::intValue),
        optionalLabelInt(labels, LABEL_MEMORY, field),
        Optional.ofNullable(allocatable.get(GPU)),
        mig,
        !unschedulable);
  }

  /** The pod at {@code field} ("Pod", say). */
  public static PodInfo pod(JsonNode pod, String field) {
    requireObject(pod, field);
    JsonNode metadata = requireObject(pod.get("metadata"), field + ".metadata");
    String name = requireText(metadata.get("name"), field + ".metadata.name");
    JsonNode ns = metadata.get("namespace");
    String namespace = ns == null || ns.isNull() || ns.asText().isEmpty() ? "default" : requireText(ns, field + ".metadata.namespace");
    JsonNode uidNode = metadata.get("uid");
    String uid = uidNode == null || uidNode.isNull() ? "" : requireText(uidNode, field + ".metadata.uid");
    Map<String, String> labels = stringMap(metadata.get("labels"), field + ".metadata.labels");
    Map<String, String> annotations = stringMap(metadata.get("annotations"), field + ".metadata.annotations");
    JsonNode spec = requireObject(pod.get("spec"), field + ".spec");
    JsonNode nodeName = spec.get("nodeName");
    Optional<String> boundTo = nodeName == null || nodeName.isNull() || nodeName.asText().isEmpty()
        ? Optional.empty() : Optional.of(requireText(nodeName, field + ".spec.nodeName"));
    JsonNode containers = spec.get("containers");
    if (containers == null || !containers.isArray()) {
      throw new BadRequestException(field + ".spec.containers", containers, "must be an array of containers");
    }
    int gpus = 0;
    Map<String, Integer> mig = new LinkedHashMap<>();
    for (int i = 0; i < containers.size(); i++) {
      String c = field + ".spec.containers[" + i + "]";
      JsonNode container = requireObject(containers.get(i), c);
      JsonNode resources = optionalObject(container.get("resources"), c + ".resources");
      if (resources == null) {
        continue;
      }
      Map<String, Integer> limits = gpuQuantities(resources.get("limits"), c + ".resources.limits");
      Map<String, Integer> wanted = limits.isEmpty() ? gpuQuantities(resources.get("requests"), c + ".resources.requests") : limits;
      for (Map.Entry<String, Integer> e : wanted.entrySet()) {
        if (e.getKey().equals(GPU)) {
          gpus += e.getValue();
        } else if (e.getValue() > 0) {
          mig.merge(e.getKey().substring(MIG_PREFIX.length()), e.getValue(), Integer::sum);
        }
      }
    }
    JsonNode status = optionalObject(pod.get("status"), field + ".status");
    String phase = status == null ? "" : status.path("phase").asText("");
    return new PodInfo(namespace, name, uid, labels, annotations, boundTo, phase, gpus, mig);
  }

  /** The NVIDIA GPU and MIG quantities of a resource list; other resources are not read. */
  private static Map<String, Integer> gpuQuantities(JsonNode list, String field) {
    JsonNode map = optionalObject(list, field);
    Map<String, Integer> out = new LinkedHashMap<>();
    if (map == null) {
      return out;
    }
    map.fields().forEachRemaining(e -> {
      if (e.getKey().equals(GPU) || e.getKey().startsWith(MIG_PREFIX)) {
        out.put(e.getKey(), count(e.getValue(), field + "[" + e.getKey() + "]"));
      }
    });
    return out;
  }

  /** An extended-resource quantity: a whole number, as a JSON string ("2") or number. */
  private static int count(JsonNode q, String field) {
    String text = q.isTextual() ? q.asText() : q.isIntegralNumber() ? q.asText() : null;
    if (text == null || !COUNT.matcher(text).matches()) {
      throw new BadRequestException(field, q, "an extended resource quantity must be a whole number such as \"1\"");
    }
    return Integer.parseInt(text);
  }

  private static Optional<Long> optionalLabelInt(Map<String, String> labels, String label, String field) {
    String v = labels.get(label);
    if (v == null) {
      return Optional.empty();
    }
    if (!LABEL_NUMBER.matcher(v).matches()) {
      throw new BadRequestException(field + ".metadata.labels[" + label + "]", v, "must be a whole number");
    }
    return Optional.of(Long.parseLong(v));
  }

  private static Map<String, String> stringMap(JsonNode node, String field) {
    JsonNode map = optionalObject(node, field);
    Map<String, String> out = new LinkedHashMap<>();
    if (map != null) {
      map.fields().forEachRemaining(e -> out.put(e.getKey(), requireText(e.getValue(), field + "[" + e.getKey() + "]")));
    }
    return out;
  }

  static JsonNode requireObject(JsonNode node, String field) {
    if (node == null || !node.isObject()) {
      throw new BadRequestException(field, node == null ? "(missing)" : node, "must be a JSON object");
    }
    return node;
  }

  private static JsonNode optionalObject(JsonNode node, String field) {
    if (node == null || node.isNull()) {
      return null;
    }
    return requireObject(node, field);
  }

  static String requireText(JsonNode node, String field) {
    if (node == null || !node.isTextual() || node.asText().isEmpty()) {
      throw new BadRequestException(field, node == null ? "(missing)" : node, "must be a non-empty string");
    }
    return node.asText();
  }
}
