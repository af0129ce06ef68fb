package org.rampa.domain;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.util.List;
import org.immutables.value.Value;

/**
 * A model as layers in a valid topological order. A stage is a contiguous range {@code [from, to)}.
 *
 * <p>The bytes shipped at a cut are all tensors produced before the cut and consumed after it, so
 * skip connections that jump over a cut are charged there too.
 */
@Value.Immutable
@JsonSerialize(as = ImmutableModel.class)
@JsonDeserialize(as = ImmutableModel.class)
public abstract class Model {

  public abstract String name();

  public abstract List<Layer> layers();

  /**
   * The runtime that serves the model, and so which measurements time it on every GPU and share
   * ({@link ServingRuntime}); the catalog's, TensorRT, unless said otherwise. Written to JSON only
   * when it is not the default, so documents without it read and write as before.
   */
  @Value.Default
  @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = DefaultRuntime.class)
  public ServingRuntime runtime() {
    return ServingRuntime.TENSORRT;
  }

  /** Jackson's filter for {@link #runtime()}: "equal" to the default runtime, which is then left out. */
  static final class DefaultRuntime {
    @Override
    public boolean equals(Object value) {
      return value == ServingRuntime.TENSORRT;
    }

    @Override
    public int hashCode() {
      return ServingRuntime.TENSORRT.hashCode();
    }
  }

  public final int size() {
    return layers().size();
  }

  public final Layer layer(int index) {
    return layers().get(index);
  }

  /**
   * Indices of the layers whose outputs layer {@code i} consumes, with the default resolved and the
   * model's own input ({@link Layer#MODEL_INPUT}) left out.
   */
  public final List<Integer> inputsOf(int i) {
    List<Integer> explicit = layer(i).inputs();
    if (explicit.isEmpty()) {
      return i == 0 ? List.of() : List.of(i - 1);
    }
    return explicit.stream().filter(p -> p != Layer.MODEL_INPUT).toList();
  }

  /**
   * Bytes per sample crossing the cut before layer {@code cut} (0 &lt; cut &lt; size); 0 at the model's
   * own input and output boundaries.
   */
  public final long cutBytesPerSample(int cut) {
    if (cut <= 0 || cut >= size()) {
      return 0;
    }
    return cutBytes()[cut];
  }

  @Value.Lazy
  @JsonIgnore
  protected long[] cutBytes() {
    int n = size();
    int[] lastConsumer = new int[n];
    for (int p = 0; p < n; p++) {
      lastConsumer[p] = p;
    }
    for (int q = 0; q < n; q++) {
      for (int p : inputsOf(q)) {
        lastConsumer[p] = Math.max(lastConsumer[p], q);
      }
    }
    // layer p's output crosses every cut c with p < c <= lastConsumer[p]
    long[] diff = new long[n + 1];
    for (int p = 0; p < n; p++) {
      if (lastConsumer[p] > p) {
        diff[p + 1] += layer(p).outputBytesPerSample();
        diff[lastConsumer[p] + 1] -= layer(p).outputBytesPerSample();
      }
    }
    long[] cut = new long[n + 1];
    long running = 0;
    for (int c = 0; c <= n; c++) {
      running += diff[c];
      cut[c] = running;
    }
    return cut;
  }

  public final double totalFlopsPerSample() {
    return layers().stream().mapToDouble(Layer::flopsPerSample).sum();
  }

  public final long totalWeightBytes() {
    return layers().stream().mapToLong(Layer::weightBytes).sum();
  }

  /** The most layers a model may have: searches are quadratic in it, and real models have hundreds. */
  public static final int MAX_LAYERS = 100_000;

  @Value.Check
  protected void check() {
    Invalid.requireNonBlank("model.name", name());
    if (layers().isEmpty()) {
      throw Invalid.value(
          "model[" + name() + "].layers", "[]", "a model needs at least one layer",
          "the model file was truncated, or the importer found no compute layers");
    }
    if (layers().size() > MAX_LAYERS) {
      throw Invalid.value("model[" + name() + "].layers", layers().size() + " layers", "must be at most " + MAX_LAYERS);
    }
    for (int i = 0; i < size(); i++) {
      for (int p : layer(i).inputs()) {
        if (p < Layer.MODEL_INPUT || p >= i) {
          throw Invalid.value(
              "model[" + name() + "].layers[" + i + "].inputs", p,
              "a layer may only consume earlier layers (indices 0.." + (i - 1) + ") or the model's input (-1)",
              "the layers are not in topological order; linearise the graph first");
        }
      }
    }
  }

  public static Model of(String name, List<Layer> layers) {
    return ImmutableModel.builder().name(name).layers(layers).build();
  }

  /** This model served by {@code runtime}: the same layers, timed by that runtime's measurements. */
  public final Model servedBy(ServingRuntime runtime) {
    return ImmutableModel.copyOf(this).withRuntime(runtime);
  }
}
