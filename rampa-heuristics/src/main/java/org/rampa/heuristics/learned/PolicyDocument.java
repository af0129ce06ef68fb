package org.rampa.heuristics.learned;

import java.util.List;
import org.rampa.domain.Invalid;
import org.rampa.json.RampaJson;

/**
 * A policy's weights as a small JSON document. Parameters are stored in single precision, which
 * halves the document and is far finer than training noise; a policy read from a document
 * writes back the same document.
 *
 * @param format always {@value #FORMAT}
 * @param features the feature each network input reads, in order (a policy trained on other
 *     features is refused by the environment that loads it)
 * @param hidden the widths of the tanh hidden layers
 * @param parameters all weights and biases, layer by layer (per layer: weights row by row, biases)
 * @param provenance how the weights were produced (the training command and seed)
 */
public record PolicyDocument(String format, List<String> features, int[] hidden, float[] parameters, String provenance) {
  public static final String FORMAT = "rampa-candidate-policy/1";

  public PolicyDocument {
    if (!FORMAT.equals(format)) {
      throw Invalid.value("format", format, "must be \"" + FORMAT + "\"");
    }
    features = List.copyOf(features);
    hidden = hidden.clone();
    parameters = parameters.clone();
  }

  public static PolicyDocument of(CandidatePolicy policy, String provenance) {
    double[] weights = policy.network.parameters;
    float[] stored = new float[weights.length];
    for (int i = 0; i < weights.length; i++) {
      stored[i] = (float) weights[i];
    }
    return new PolicyDocument(FORMAT, policy.featureNames(), policy.network.hidden(), stored, provenance);
  }

  public static PolicyDocument read(String json) {
    return RampaJson.read(json, PolicyDocument.class);
  }

  public String write() {
    return RampaJson.write(this);
  }

  /** The policy these weights define; the shape must match the parameter count. */
  public CandidatePolicy policy() {
    double[] weights = new double[parameters.length];
    for (int i = 0; i < parameters.length; i++) {
      weights[i] = parameters[i];
    }
    return new CandidatePolicy(features, Mlp.of(features.size(), hidden, weights));
  }
}
