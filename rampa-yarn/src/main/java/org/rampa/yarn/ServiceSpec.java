package org.rampa.yarn;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.rampa.catalog.ModelCatalog;
import org.rampa.domain.Invalid;
import org.rampa.domain.Model;
import org.rampa.domain.ServiceRequest;
import org.rampa.domain.Slo;
import org.rampa.json.RampaJson;

/**
 * One inference service as an application master describes it in the allocation tags of one
 * {@code SchedulingRequest} ({@code rampa.*=value}; see the module's README), parsed into RAMPA's
 * {@link ServiceRequest} plus the strategy and importance to plan it with. Tags outside the
 * {@code rampa.} namespace are the AM's own and travel unchanged onto its containers.
 */
public record ServiceSpec(String name, ServiceRequest request, String strategy, String importance, Set<String> ownTags) {

  public static final String NS = "rampa.";
  public static final String SERVICE = NS + "service";
  public static final String MODEL = NS + "model";
  public static final String MODEL_FILE = NS + "model-file";
  public static final String PHASE = NS + "phase";
  public static final String TOKENS = NS + "tokens";
  public static final String THROUGHPUT = NS + "slo.throughput";
  public static final String LATENCY_MS = NS + "slo.latency-ms";
  public static final String BATCH = NS + "slo.batch";
  public static final String MAX_STAGES = NS + "max-stages";
  public static final String STRATEGY = NS + "strategy";
  public static final String IMPORTANCE = NS + "importance";
  public static final String SHARING = NS + "sharing";

  /** Tags the adapter writes onto each container it places (the AM never sets them). */
  public static final String GROUP = NS + "group";
  public static final String GROUPS = NS + "groups";
  public static final String STAGE = NS + "stage";
  public static final String STAGES = NS + "stages";
  public static final String LAYERS = NS + "layers";
  public static final String GPUS = NS + "gpus";
  public static final String GPU_TYPE = NS + "gpu-type";
  /** On a rejected request: RAMPA's reason. */
  public static final String REJECTED = NS + "rejected";

  private static final Set<String> INPUT_KEYS = Set.of(SERVICE, MODEL, MODEL_FILE, PHASE, TOKENS, THROUGHPUT,
      LATENCY_MS, BATCH, MAX_STAGES, STRATEGY, IMPORTANCE, SHARING);
  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,63}");

  /** Whether {@code tags} ask for RAMPA at all (they carry {@value #SERVICE}). */
  public static boolean isRampaRequest(Set<String> tags) {
    return tags.stream().anyMatch(t -> t.startsWith(SERVICE + "="));
  }

  /** Whether {@code tags} mark a GPU group the adapter placed before (a retry after a refused commit). */
  public static boolean isPlacedGroup(Set<String> tags) {
    return tags.stream().anyMatch(t -> t.startsWith(GROUP + "="));
  }

  /** The value of tag {@code key} in {@code tags}, or null. */
  public static String tag(Set<String> tags, String key) {
    String prefix = key + "=";
    return tags.stream().filter(t -> t.startsWith(prefix)).map(t -> t.substring(prefix.length())).findFirst().orElse(null);
  }

  /**
   * Parses the tags of one request of application {@code appId}.
   *
   * @throws IllegalArgumentException naming the tag, its value and the rule it breaks
   */
  public static ServiceSpec parse(Set<String> tags, String appId, RampaYarnConfig config) {
    Map<String, String> v = new LinkedHashMap<>();
    Set<String> own = new LinkedHashSet<>();
    for (String t : tags) {
      if (!t.startsWith(NS)) {
        own.add(t);
        continue;
      }
      int eq = t.indexOf('=');
      String key = eq < 0 ? t : t.substring(0, eq);
      if (!INPUT_KEYS.contains(key)) {
        throw Invalid.value("tag " + key, t, "is not a key of the request contract",
            "one of " + new java.util.TreeSet<>(INPUT_KEYS));
      }
      if (eq < 0 || eq == t.length() - 1) {
        throw Invalid.value("tag " + key, t, "must read " + key + "=VALUE");
      }
      if (v.put(key, t.substring(eq + 1)) != null) {
        throw Invalid.value("tag " + key, t, "is given twice");
      }
    }
    String name = required(v, SERVICE);
    if (!NAME.matcher(name).matches()) {
      throw Invalid.value(SERVICE, name, "must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit");
    }
    String sharing = v.getOrDefault(SHARING, "none");
    if (!sharing.equals("none")) {
      throw Invalid.value(SHARING, sharing,
          "YARN cannot enforce GPU shares (MPS, MIG): yarn.io/gpu is a count of whole GPUs, so RAMPA plans whole GPUs only",
          "drop the tag or set " + SHARING + "=none");
    }
    Model model = model(v);
    Slo slo = Slo.of(
        positiveDouble(v, THROUGHPUT, required(v, THROUGHPUT)),
        Duration.ofNanos(Math.round(positiveDouble(v, LATENCY_MS, required(v, LATENCY_MS)) * 1e6)),
        intIn(v, BATCH, 1, 1, 4096));
    ServiceRequest request = ServiceRequest.builder()
        .id(appId + "/" + name)
        .model(model)
        .slo(slo)
        .maxStages(intIn(v, MAX_STAGES, 8, 1, ServiceRequest.MAX_STAGES))
        .build();
    String strategy = v.containsKey(STRATEGY) ? RampaYarnConfig.requireStrategy(STRATEGY, v.get(STRATEGY)) : config.strategy();
    String importance = v.containsKey(IMPORTANCE)
        ? RampaYarnConfig.requireImportance(IMPORTANCE, v.get(IMPORTANCE)) : config.importance();
    return new ServiceSpec(name, request, strategy, importance, own);
  }

  private static Model model(Map<String, String> v) {
    if (v.containsKey(MODEL) == v.containsKey(MODEL_FILE)) {
      throw Invalid.value(MODEL + " / " + MODEL_FILE, v.get(MODEL) + " / " + v.get(MODEL_FILE),
          "exactly one must be given", MODEL + "=llama2-7b (a catalog model: " + ModelCatalog.names() + ")");
    }
    if (v.containsKey(MODEL_FILE)) {
      if (v.containsKey(PHASE) || v.containsKey(TOKENS)) {
        throw Invalid.value(PHASE + " / " + TOKENS, v.get(PHASE) + " / " + v.get(TOKENS),
            "apply to catalog models only; a model file lists its layers for one phase already");
      }
      // read by the ResourceManager: the path must be readable there (shared storage or the RM host)
      return RampaJson.read(Path.of(v.get(MODEL_FILE)), Model.class);
    }
    String name = v.get(MODEL);
    if (!ModelCatalog.names().contains(name)) {
      throw Invalid.value(MODEL, name, "is not a catalog model", "one of " + ModelCatalog.names() + ", or give " + MODEL_FILE);
    }
    String phase = v.getOrDefault(PHASE, "model");
    return switch (phase) {
      case "model" -> {
        if (v.containsKey(TOKENS)) {
          throw Invalid.value(TOKENS, v.get(TOKENS), "applies to phase prefill or decode only", "add " + PHASE + "=prefill");
        }
        yield ModelCatalog.model(name);
      }
      case "prefill" -> ModelCatalog.prefill(name, intIn(v, TOKENS, -1, 1, Integer.MAX_VALUE));
      case "decode" -> ModelCatalog.decode(name, intIn(v, TOKENS, -1, 1, Integer.MAX_VALUE));
      default -> throw Invalid.value(PHASE, phase, "must be model, prefill or decode");
    };
  }

  private static String required(Map<String, String> v, String key) {
    String value = v.get(key);
    if (value == null) {
      throw Invalid.value(key, "(missing)", "is required", "add the allocation tag " + key + "=...");
    }
    return value;
  }

  private static double positiveDouble(Map<String, String> v, String key, String text) {
    double d;
    try {
      d = Double.parseDouble(text);
    } catch (NumberFormatException e) {
      throw Invalid.value(key, text, "must be a number");
    }
    if (!Double.isFinite(d) || d <= 0) {
      throw Invalid.value(key, text, "must be a finite number > 0");
    }
    return d;
  }

  /** The integer tag {@code key} in [min, max]; {@code fallback} when absent (-1: required). */
  private static int intIn(Map<String, String> v, String key, int fallback, int min, int max) {
    String text = v.get(key);
    if (text == null) {
      if (fallback < 0) {
        required(v, key);
      }
      return fallback;
    }
    int i;
    try {
      i = Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw Invalid.value(key, text, "must be an integer in [" + min + ", " + max + "]");
    }
    if (i < min || i > max) {
      throw Invalid.value(key, text, "must be an integer in [" + min + ", " + max + "]");
    }
    return i;
  }
}
