package org.rampa.split;

import java.util.List;
import org.rampa.domain.Invalid;

/**
 * One tensor of a layer graph for the "per device" transfer accounting of Tarnawski et al.: when
 * the producer and a consumer sit on different devices, the tensor costs {@code cost} once on the
 * producing device and once on each distinct consuming device (in the table's time unit).
 *
 * @param producer index of the layer that produces the tensor
 * @param consumers indices of the later layers that consume it (non-empty, all greater than producer)
 * @param cost time to send (and, separately, to receive) the tensor once
 */
public record TensorTransfer(int producer, List<Integer> consumers, double cost) {

  public TensorTransfer {
    consumers = List.copyOf(consumers);
    if (producer < 0) {
      throw Invalid.value("tensor.producer", producer, "must be >= 0");
    }
    if (consumers.isEmpty()) {
      throw Invalid.value("tensor[" + producer + "].consumers", "[]", "a tensor needs at least one consumer",
          "drop tensors nobody reads (the model's final output)");
    }
    for (int c : consumers) {
      if (c <= producer) {
        throw Invalid.value("tensor[" + producer + "].consumers", consumers,
            "every consumer must come after the producer in the layer order",
            "the layers are not in topological order; linearise the graph first");
      }
    }
    Invalid.requireFiniteNonNegative("tensor[" + producer + "].cost", cost);
  }

  /** The last layer that reads the tensor. */
  public int lastConsumer() {
    int last = producer;
    for (int c : consumers) {
      last = Math.max(last, c);
    }
    return last;
  }
}
