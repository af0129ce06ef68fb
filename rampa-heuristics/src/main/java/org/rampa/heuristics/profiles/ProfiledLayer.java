package org.rampa.heuristics.profiles;

import java.util.List;
import org.rampa.domain.Invalid;

/**
 * One layer of a PipeDream profile, in the importer's topological order.
 *
 * @param id the profile's node id ("node4")
 * @param module the PyTorch module description ("Conv2d(3, 64, ...)", "Input")
 * @param forwardMs measured forward time of the profiled minibatch, in ms (0 for data-loader rows)
 * @param backwardMs measured backward time, in ms (0 for data-loader rows)
 * @param activationBytes size of the layer's output for the profiled minibatch
 * @param parameterBytes size of the layer's parameters
 * @param inputs indices (in this order) of the layers whose outputs this layer reads
 */
public record ProfiledLayer(
    String id, String module, double forwardMs, double backwardMs, long activationBytes, long parameterBytes, List<Integer> inputs) {

  public ProfiledLayer {
    inputs = List.copyOf(inputs);
    Invalid.requireNonBlank("profiledLayer.id", id);
    Invalid.requireFiniteNonNegative("profiledLayer[" + id + "].forwardMs", forwardMs);
    Invalid.requireFiniteNonNegative("profiledLayer[" + id + "].backwardMs", backwardMs);
    Invalid.requireNonNegative("profiledLayer[" + id + "].activationBytes", activationBytes);
    Invalid.requireNonNegative("profiledLayer[" + id + "].parameterBytes", parameterBytes);
  }

  /** The layer's time in {@code mode}, in ms. */
  public double milliseconds(ProfileMode mode) {
    return mode == ProfileMode.INFERENCE ? forwardMs : forwardMs + backwardMs;
  }

  /** True for the data loader rows ("Input", "Input0", ...), which are not model compute. */
  public static boolean isDataLoader(String module) {
    return module.matches("Input\\d*");
  }
}
