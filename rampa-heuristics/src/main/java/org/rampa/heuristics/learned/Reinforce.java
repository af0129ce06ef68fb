package org.rampa.heuristics.learned;

import java.util.List;
import org.rampa.domain.Invalid;

/**
 * REINFORCE with a per-instance baseline and an entropy bonus. Rollouts come in groups, each group
 * several rollouts of the same instance; a rollout's advantage is its return minus its group's mean
 * return, which removes how hard the instance is from the signal; advantages are then divided by
 * their standard deviation over the update. The loss minimised is
 * {@code (1/N) Σ_rollouts [ −A Σ_t log π(a_t) − β Σ_t H(π_t) ]}.
 */
public final class Reinforce {
  private final CandidatePolicy policy;
  private final ReinforceOptions options;
  private final Adam adam;

  /** Trains {@code policy}'s weights in place. */
  public Reinforce(CandidatePolicy policy, ReinforceOptions options) {
    this.policy = policy;
    this.options = options;
    this.adam = new Adam(policy.network.parameterCount(), options.learningRate());
  }

  /** What one update saw: the mean return of its rollouts and the mean entropy of their decisions. */
  public record Update(double meanResult, double meanEntropy) {}

  /** The loss at the current weights and what the update saw. */
  record Evaluation(double loss, Update update) {}

  /** One gradient step from groups of rollouts of the same instance each. */
  public Update update(List<List<Rollout>> groups) {
    double[] gradient = new double[policy.network.parameterCount()];
    Update seen = lossAndGradient(groups, gradient).update();
    adam.step(policy.network.parameters, gradient);
    return seen;
  }

  /**
   * One over the standard deviation of the advantages of the update (0 when they are all 0): a long
   * episode's return moves by a few hundredths between rollouts, and unscaled such advantages would
   * be drowned by the entropy bonus summed over its many steps.
   */
  private static double advantageScale(List<List<Rollout>> groups) {
    double squares = 0;
    int n = 0;
    for (List<Rollout> group : groups) {
      double baseline = group.stream().mapToDouble(Rollout::result).average().orElseThrow();
      for (Rollout rollout : group) {
        squares += (rollout.result() - baseline) * (rollout.result() - baseline);
        n++;
      }
    }
    double deviation = Math.sqrt(squares / n);
    return deviation < 1e-12 ? 0 : 1 / deviation;
  }

  /** Evaluates the loss, adding its gradient with respect to the weights to {@code gradient}. */
  Evaluation lossAndGradient(List<List<Rollout>> groups, double[] gradient) {
    int rollouts = 0;
    for (int g = 0; g < groups.size(); g++) {
      if (groups.get(g).isEmpty()) {
        throw Invalid.value("groups[" + g + "]", "empty", "every group needs at least one rollout");
      }
      rollouts += groups.get(g).size();
    }
    if (rollouts == 0) {
      throw Invalid.value("groups", "empty", "an update needs at least one rollout");
    }
    double beta = options.entropyBonus();
    double scale = advantageScale(groups);
    double loss = 0;
    double results = 0;
    double entropies = 0;
    int decisions = 0;
    for (List<Rollout> group : groups) {
      double baseline = group.stream().mapToDouble(Rollout::result).average().orElseThrow();
      for (Rollout rollout : group) {
        double advantage = (rollout.result() - baseline) * scale;
        results += rollout.result();
        for (Decision d : rollout.decisions()) {
          int n = d.legal().length;
          double[][][] activations = new double[n][][];
          double[] scores = new double[n];
          for (int i = 0; i < n; i++) {
            if (d.legal()[i]) {
              activations[i] = policy.network.forward(d.features()[i]);
              scores[i] = activations[i][activations[i].length - 1][0];
            }
          }
          double[] p = CandidatePolicy.softmax(scores, d.legal());
          double entropy = 0;
          for (int i = 0; i < n; i++) {
            if (p[i] > 0) {
              entropy -= p[i] * Math.log(p[i]);
            }
          }
          loss += (-advantage * Math.log(p[d.chosen()]) - beta * entropy) / rollouts;
          entropies += entropy;
          decisions++;
          for (int i = 0; i < n; i++) {
            if (!d.legal()[i]) {
              continue;
            }
            // d log p_a / d s_i = [i = a] − p_i;  d H / d s_i = −p_i (log p_i + H)
            double dLogP = (i == d.chosen() ? 1 : 0) - p[i];
            double dEntropy = p[i] > 0 ? -p[i] * (Math.log(p[i]) + entropy) : 0;
            double dScore = (-advantage * dLogP - beta * dEntropy) / rollouts;
            policy.network.backward(activations[i], dScore, gradient);
          }
        }
      }
    }
    return new Evaluation(loss, new Update(results / rollouts, decisions == 0 ? 0 : entropies / decisions));
  }
}
