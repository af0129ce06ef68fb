package org.rampa.catalog;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.rampa.domain.Invalid;
import org.rampa.domain.Layer;
import org.rampa.domain.Model;

/**
 * Real models as layer chains at block granularity: CNNs from torchvision's architectures and
 * transformers built from their published configurations (the formulas of the project's model
 * catalog). Weights and activations are FP16 (2 bytes per element); a sample is one image or one
 * sequence.
 *
 * <p>Transformers come in two forms: {@link #prefill} (a whole sequence of {@code s} tokens per
 * sample) and {@link #decode} (one generated token per sample at context {@code c}, reading the
 * KV cache). A decoder's per-sequence KV cache is per-request state memory of its block.
 */
public final class ModelCatalog {

  static final int BYTES_PER_ELEMENT = 2;

  private static final Map<String, List<Layer>> CNNS = loadCnns();
  private static final Map<String, TransformerConfig> TRANSFORMERS = loadTransformers();
  private static final Map<String, Double> CNN_PUBLISHED = Map.of(
      "resnet50", 25.557e6, "vgg16", 138.358e6, "mobilenetv2", 3.505e6);

  private ModelCatalog() {}

  /** Every model name: CNNs and transformers. */
  public static Set<String> names() {
    Set<String> names = new java.util.LinkedHashSet<>(CNNS.keySet());
    names.addAll(TRANSFORMERS.keySet());
    return Collections.unmodifiableSet(names);
  }

  public static boolean isTransformer(String name) {
    return TRANSFORMERS.containsKey(name);
  }

  /** A CNN at 224x224, or a transformer's prefill at its default sequence length. */
  public static Model model(String name) {
    List<Layer> cnn = CNNS.get(name);
    if (cnn != null) {
      return Model.of(name, cnn);
    }
    return prefill(name, transformer(name).defaultSequence());
  }

  /** A transformer processing a whole sequence of {@code sequenceLength} tokens per sample. */
  public static Model prefill(String name, int sequenceLength) {
    TransformerConfig c = transformer(name);
    if (sequenceLength < 1 || sequenceLength > c.maxPositions()) {
      throw Invalid.value("sequenceLength", sequenceLength, "must lie in [1, " + c.maxPositions() + "] for " + name);
    }
    return Model.of(name + "-prefill-" + sequenceLength, c.layers(sequenceLength, false));
  }

  /** One decode step of a transformer decoder: one new token per sequence at context {@code context}. */
  public static Model decode(String name, int context) {
    TransformerConfig c = transformer(name);
    if (!c.isDecoder()) {
      throw Invalid.value("model", name, "is an encoder and has no decode phase", "use prefill(\"" + name + "\", s)");
    }
    if (context < 1 || context > c.maxPositions()) {
      throw Invalid.value("context", context, "must lie in [1, " + c.maxPositions() + "] for " + name);
    }
    return Model.of(name + "-decode-" + context, c.layers(context, true));
  }

  /** The published total parameter count the catalog reproduces (within 1 %). */
  public static double publishedParameters(String name) {
    Double cnn = CNN_PUBLISHED.get(name);
    return cnn != null ? cnn : transformer(name).publishedParameters();
  }

  /** Total parameters of a catalog model (weights are FP16). */
  public static double parameters(Model model) {
    return (double) model.totalWeightBytes() / BYTES_PER_ELEMENT;
  }

  static TransformerConfig transformer(String name) {
    TransformerConfig c = TRANSFORMERS.get(name);
    if (c == null) {
      throw Invalid.value("model", name, "is not in the model catalog", "choose one of " + names());
    }
    return c;
  }

  private static Map<String, List<Layer>> loadCnns() {
    CsvTable t = CsvTable.resource("cnn-layers.csv");
    Map<String, List<Layer>> models = new LinkedHashMap<>();
    for (int r = 0; r < t.size(); r++) {
      long params = (long) t.number(r, "params");
      models.computeIfAbsent(t.get(r, "model"), k -> new ArrayList<>()).add(Layer.builder()
          .name(t.get(r, "layer"))
          .flopsPerSample(2e6 * t.number(r, "macs_millions"))
          .weightBytes(params * BYTES_PER_ELEMENT)
          .outputBytesPerSample((long) t.number(r, "output_bytes_fp16"))
          .build());
    }
    models.replaceAll((k, v) -> List.copyOf(v));
    return Collections.unmodifiableMap(models);
  }

  private static Map<String, TransformerConfig> loadTransformers() {
    CsvTable t = CsvTable.resource("transformers.csv");
    Map<String, TransformerConfig> configs = new LinkedHashMap<>();
    for (int r = 0; r < t.size(); r++) {
      TransformerConfig c = new TransformerConfig(
          t.get(r, "name"),
          TransformerConfig.Family.valueOf(t.get(r, "family").toUpperCase(java.util.Locale.ROOT)),
          (int) t.number(r, "hidden"),
          (int) t.number(r, "layers"),
          (int) t.number(r, "heads"),
          (int) t.number(r, "kv_heads"),
          (int) t.number(r, "ffn"),
          (int) t.number(r, "vocab"),
          (int) t.number(r, "max_positions"),
          (int) t.number(r, "experts"),
          (int) t.number(r, "active_experts"),
          (int) t.number(r, "default_sequence"),
          t.number(r, "published_params"),
          t.get(r, "source"));
      configs.put(c.name(), c);
    }
    return Collections.unmodifiableMap(configs);
  }
}
