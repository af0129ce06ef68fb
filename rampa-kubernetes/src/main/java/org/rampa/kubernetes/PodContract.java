package org.rampa.kubernetes;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;

/**
 * The pod contract: the labels and annotations that make a pod one GPU of a RAMPA service (see the
 * module's README). Every pod of a service carries the same service annotations; each names its
 * stage and replica, and asks for exactly one {@code nvidia.com/gpu} or one {@code
 * nvidia.com/mig-<profile>} — the GPU or MIG instance that stage replica runs on.
 *
 * <p>In a LeaderWorkerSet, the worker index is the stage when {@code rampa.io/stage} is absent, and
 * each group is its own service {@code <namespace>/<service>-g<group index>}.
 *
 * @param service the service's parameters, the same on all its pods
 * @param stage the pipeline stage this pod runs (0-based)
 * @param replica which data-parallel replica of that stage (0-based)
 */
public record PodContract(Service service, int stage, int replica) {

  public static final String PREFIX = "rampa.io/";
  /** Label: the service's name; the service's id is {@code <namespace>/<name>}. */
  public static final String SERVICE = PREFIX + "service";
  /** Label: the stage index; LeaderWorkerSet's worker index stands in when absent. */
  public static final String STAGE = PREFIX + "stage";
  public static final String LWS_WORKER_INDEX = "leaderworkerset.sigs.k8s.io/worker-index";
  /** LeaderWorkerSet's group label: each group of one LeaderWorkerSet is its own service (gang). */
  public static final String LWS_GROUP_INDEX = "leaderworkerset.sigs.k8s.io/group-index";
  /** Label: the replica index within the stage (default 0). */
  public static final String REPLICA = PREFIX + "replica";
  public static final String MODEL = PREFIX + "model";
  public static final String PHASE = PREFIX + "phase";
  public static final String TOKENS = PREFIX + "tokens";
  public static final String THROUGHPUT = PREFIX + "slo-throughput";
  public static final String LATENCY_MS = PREFIX + "slo-latency-ms";
  public static final String BATCH = PREFIX + "slo-batch";
  public static final String MAX_STAGES = PREFIX + "max-stages";
  public static final String STRATEGY = PREFIX + "strategy";

  /**
   * A service as its pods describe it.
   *
   * @param migProfile the MIG profile every pod asks for, or empty when each asks for a whole GPU
   */
  public record Service(String id, String model, String phase, Optional<Integer> tokens, double throughput, long latencyMs,
      int batch, int maxStages, String strategy, Optional<String> migProfile) {

    /** The resource a pod of this service asks for: {@code nvidia.com/gpu} or {@code nvidia.com/mig-<profile>}. */
    public String resource() {
      return migProfile.map(p -> KubeJson.MIG_PREFIX + p).orElse(KubeJson.GPU);
    }

    /** The RAMPA request; a contract error when the catalog or the SLO rules refuse a value. */
    public ServiceRequest request() {
      try {
        Model m = switch (phase) {
          case "decode" -> ModelCatalog.decode(model, tokens.orElseThrow(() -> new ContractException(
              "annotation " + TOKENS + " is required with " + PHASE + "=decode (the context length)")));
          case "prefill" -> tokens.map(t -> ModelCatalog.prefill(model, t)).orElseGet(() -> ModelCatalog.model(model));
          default -> throw new ContractException("annotation " + PHASE + " = " + phase + ": must be prefill or decode");
        };
        return ServiceRequest.builder().id(id).model(m).slo(Slo.of(throughput, Duration.ofMillis(latencyMs), batch))
            .maxStages(maxStages).build();
      } catch (ContractException e) {
        throw e;
      } catch (IllegalArgumentException e) {
        throw new ContractException("service " + id + ": " + e.getMessage());
      }
    }
  }

  /** A pod that names a RAMPA service but breaks the contract; the reason says what to fix. */
  public static final class ContractException extends RuntimeException {
    public ContractException(String message) {
      super(message);
    }
  }

  /** True when the pod names a RAMPA service. */
  public static boolean isRampaPod(PodInfo pod) {
    return pod.labels().containsKey(SERVICE);
  }

  /**
   * The contract of a RAMPA pod ({@link #isRampaPod}), whose strategy must be one of {@code strategies}.
   *
   * @throws ContractException naming the label, annotation or resource that is wrong
   */
  public static PodContract of(PodInfo pod, String defaultStrategy, Set<String> strategies) {
    Map<String, String> l = pod.labels();
    Map<String, String> a = pod.annotations();
    String name = l.get(SERVICE);
    if (name == null || name.isBlank()) {
      throw new ContractException("label " + SERVICE + " is empty");
    }
    String stageText = l.containsKey(STAGE) ? l.get(STAGE) : l.get(LWS_WORKER_INDEX);
    if (stageText == null) {
      throw new ContractException("label " + STAGE + " (or " + LWS_WORKER_INDEX + ") is missing: each pod of a service runs one stage");
    }
    int stage = intIn(stageText, "label " + STAGE, 0, ServiceRequest.MAX_STAGES - 1);
    int replica = intIn(l.getOrDefault(REPLICA, "0"), "label " + REPLICA, 0, 4095);
    String model = a.get(MODEL);
    if (model == null || !ModelCatalog.names().contains(model)) {
      throw new ContractException("annotation " + MODEL + " = " + model + ": must name a model of RAMPA's catalog, one of "
          + ModelCatalog.names());
    }
    String phase = a.getOrDefault(PHASE, "prefill");
    Optional<Integer> tokens = a.containsKey(TOKENS) ? Optional.of(intIn(a.get(TOKENS), "annotation " + TOKENS, 1, 1 << 20))
        : Optional.empty();
    double throughput = positive(a.get(THROUGHPUT), "annotation " + THROUGHPUT + " (requests/s)");
    long latency = intIn(required(a, LATENCY_MS), "annotation " + LATENCY_MS, 1, 86_400_000);
    int batch = intIn(a.getOrDefault(BATCH, "1"), "annotation " + BATCH, 1, 4096);
    int maxStages = intIn(a.getOrDefault(MAX_STAGES, "8"), "annotation " + MAX_STAGES, 1, ServiceRequest.MAX_STAGES);
    String strategy = a.getOrDefault(STRATEGY, defaultStrategy);
    if (!strategies.contains(strategy)) {
      throw new ContractException("annotation " + STRATEGY + " = " + strategy + ": not available here; available: " + strategies);
    }
    Optional<String> mig;
    if (pod.gpus() == 1 && pod.migInstances().isEmpty()) {
      mig = Optional.empty();
    } else if (pod.gpus() == 0 && pod.migInstances().size() == 1 && pod.migInstances().values().iterator().next() == 1) {
      mig = Optional.of(pod.migInstances().keySet().iterator().next());
    } else {
      throw new ContractException("a RAMPA pod asks for exactly one " + KubeJson.GPU + " or one " + KubeJson.MIG_PREFIX
          + "<profile>; this one asks for " + KubeJson.GPU + "=" + pod.gpus() + " and MIG " + pod.migInstances());
    }
    String group = l.containsKey(LWS_GROUP_INDEX) ? "-g" + intIn(l.get(LWS_GROUP_INDEX), "label " + LWS_GROUP_INDEX, 0, 1 << 20) : "";
    Service service = new Service(pod.namespace() + "/" + name + group, model, phase, tokens, throughput, latency, batch, maxStages,
        strategy, mig);
    return new PodContract(service, stage, replica);
  }

  private static String required(Map<String, String> a, String key) {
    String v = a.get(key);
    if (v == null) {
      throw new ContractException("annotation " + key + " is missing");
    }
    return v;
  }

  private static int intIn(String text, String what, int min, int max) {
    try {
      int v = Integer.parseInt(text.trim());
      if (v >= min && v <= max) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below with the rule
    }
    throw new ContractException(what + " = " + text + ": must be a whole number in [" + min + ", " + max + "]");
  }

  private static double positive(String text, String what) {
    if (text == null) {
      throw new ContractException(what + " is missing");
    }
    try {
      double v = Double.parseDouble(text.trim());
      if (Double.isFinite(v) && v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below with the rule
    }
    throw new ContractException(what + " = " + text + ": must be a number > 0");
  }
}
