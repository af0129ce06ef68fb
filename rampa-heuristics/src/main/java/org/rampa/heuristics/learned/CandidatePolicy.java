package org.rampa.heuristics.learned;

import java.util.List;
import java.util.SplittableRandom;
import org.rampa.domain.Invalid;

/**
 * Scores every candidate of a decision with one shared network and picks one by a masked softmax.
 * The same weights score any number of candidates, so a policy trained on a small cluster runs on
 * a large one. Illegal candidates get probability exactly 0 and are never chosen.
 */
public final class CandidatePolicy {
  private final List<String> featureNames;
  final Mlp network;

  public CandidatePolicy(List<String> featureNames, Mlp network) {
    this.featureNames = List.copyOf(featureNames);
    if (this.featureNames.size() != network.inputs()) {
      throw Invalid.value("featureNames.size", this.featureNames.size(),
          "must equal the network's input width " + network.inputs());
    }
    this.network = network;
  }

  /** A fresh policy with Glorot-initialised weights drawn from {@code seed}. */
  public static CandidatePolicy initialised(List<String> featureNames, int[] hidden, long seed) {
    return new CandidatePolicy(featureNames, Mlp.initialised(featureNames.size(), hidden, new SplittableRandom(seed)));
  }

  /** What each input of the network means: a document trained on other features is refused. */
  public List<String> featureNames() {
    return featureNames;
  }

  public Mlp network() {
    return network.copy();
  }

  /** An independent copy (training mutates the weights in place). */
  public CandidatePolicy copy() {
    return new CandidatePolicy(featureNames, network.copy());
  }

  /** One score per candidate; illegal ones are not evaluated (they stay NaN). */
  public double[] scores(double[][] features, boolean[] legal) {
    requireDecision(features, legal);
    double[] scores = new double[features.length];
    for (int i = 0; i < features.length; i++) {
      scores[i] = legal[i] ? network.score(features[i]) : Double.NaN;
    }
    return scores;
  }

  /** The masked softmax of {@link #scores}: 0 for illegal candidates, summing to 1 over legal ones. */
  public double[] probabilities(double[][] features, boolean[] legal) {
    return softmax(scores(features, legal), legal);
  }

  /** Draws a candidate from the masked softmax. */
  public int sample(double[][] features, boolean[] legal, SplittableRandom random) {
    return draw(probabilities(features, legal), random);
  }

  /** The legal candidate with the highest score (the lowest index among ties): inference. */
  public int greedy(double[][] features, boolean[] legal) {
    double[] scores = scores(features, legal);
    int best = -1;
    for (int i = 0; i < scores.length; i++) {
      if (legal[i] && (best < 0 || scores[i] > scores[best])) {
        best = i;
      }
    }
    return best;
  }

  static int draw(double[] probabilities, SplittableRandom random) {
    double u = random.nextDouble();
    int last = -1;
    for (int i = 0; i < probabilities.length; i++) {
      if (probabilities[i] > 0) {
        last = i;
        u -= probabilities[i];
        if (u < 0) {
          return i;
        }
      }
    }
    // rounding left a sliver of u: the last legal candidate takes it, never an illegal one
    return last;
  }

  static double[] softmax(double[] scores, boolean[] legal) {
    double max = Double.NEGATIVE_INFINITY;
    for (int i = 0; i < scores.length; i++) {
      if (legal[i]) {
        max = Math.max(max, scores[i]);
      }
    }
    double[] p = new double[scores.length];
    double sum = 0;
    for (int i = 0; i < scores.length; i++) {
      if (legal[i]) {
        p[i] = Math.exp(scores[i] - max);
        sum += p[i];
      }
    }
    for (int i = 0; i < p.length; i++) {
      p[i] /= sum;
    }
    return p;
  }

  private void requireDecision(double[][] features, boolean[] legal) {
    if (features.length != legal.length) {
      throw Invalid.value("legal.length", legal.length, "must equal the number of candidates " + features.length);
    }
    for (boolean l : legal) {
      if (l) {
        return;
      }
    }
    throw Invalid.value("legal", "all " + legal.length + " candidates illegal", "at least one candidate must be legal",
        "fall back to a heuristic when a step leaves nothing legal");
  }
}
