package org.rampa.heuristics.learned;

import static org.assertj.core.api.Assertions.assertThat;
import static org.rampa.heuristics.learned.CandidatePolicyTest.randomFeatures;
import static org.rampa.heuristics.learned.CandidatePolicyTest.randomMask;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;
import org.rampa.testing.Property;

class ReinforceTest {
  private static final List<String> FEATURES = List.of("gain", "cost", "noise");

  /** A contextual bandit: the best arm is the legal one with the largest gain − cost. */
  private record Arms(double[][] features, boolean[] legal) {
    static Arms random(SplittableRandom random) {
      int n = 2 + random.nextInt(11);
      return new Arms(randomFeatures(random, n, 3), randomMask(random, n));
    }

    int best() {
      int best = -1;
      for (int i = 0; i < legal.length; i++) {
        if (legal[i] && (best < 0 || value(i) > value(best))) {
          best = i;
        }
      }
      return best;
    }

    double value(int i) {
      return features[i][0] - features[i][1];
    }
  }

  /** One pull per episode, paid 1 for the best arm. */
  private static final PolicyTrainer.Environment<Arms> BANDIT = new PolicyTrainer.Environment<>() {
    @Override
    public Arms instance(SplittableRandom random) {
      return Arms.random(random);
    }

    @Override
    public double rollout(Arms arms, Trajectory trajectory) {
      return trajectory.choose(arms.features(), arms.legal()) == arms.best() ? 1 : 0;
    }
  };

  private static CandidatePolicy trainBandit(long seed, int updates) {
    CandidatePolicy policy = CandidatePolicy.initialised(FEATURES, new int[] {8}, seed);
    var settings = new PolicyTrainer.Settings(updates * 64, 16, 4, new ReinforceOptions(0.02, 0.001), seed);
    List<PolicyTrainer.CurvePoint> curve = PolicyTrainer.train(policy, BANDIT, settings, episodes -> {});
    assertThat(curve).hasSize(updates);
    assertThat(curve.get(updates - 1).episodes()).isEqualTo(updates * 64);
    return policy;
  }

  private static double greedyAccuracy(CandidatePolicy policy, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    int right = 0;
    int trials = 1000;
    for (int i = 0; i < trials; i++) {
      Arms arms = Arms.random(random);
      if (policy.greedy(arms.features(), arms.legal()) == arms.best()) {
        right++;
      }
    }
    return right / (double) trials;
  }

  @Test
  void reinforceLearnsToPickTheBestArmOfAContextualBandit() {
    CandidatePolicy untrained = CandidatePolicy.initialised(FEATURES, new int[] {8}, 7);
    CandidatePolicy trained = trainBandit(7, 250);
    double before = greedyAccuracy(untrained, 99);
    double after = greedyAccuracy(trained, 99);
    assertThat(before).as("untrained").isLessThan(0.6);
    assertThat(after).as("after 250 updates (was %.3f)", before).isGreaterThan(0.9);
  }

  @Test
  void theSameSeedGivesTheSameWeights() {
    assertThat(trainBandit(5, 20).network().parameters()).containsExactly(trainBandit(5, 20).network().parameters());
    assertThat(trainBandit(5, 20).network().parameters()).isNotEqualTo(trainBandit(6, 20).network().parameters());
  }

  @Test
  void theLossGradientIncludingTheEntropyBonusMatchesFiniteDifferences() {
    Property.forSeeds("d loss / d weights = finite differences", 4, seed -> {
      SplittableRandom random = new SplittableRandom(seed);
      CandidatePolicy policy = CandidatePolicy.initialised(FEATURES, new int[] {5, 4}, seed);
      Reinforce reinforce = new Reinforce(policy, new ReinforceOptions(0.01, 0.3));
      List<List<Rollout>> groups = new ArrayList<>();
      for (int g = 0; g < 2; g++) {
        List<Rollout> group = new ArrayList<>();
        for (int r = 0; r < 3; r++) {
          Trajectory t = new Trajectory(policy, random);
          for (int step = 0; step < 3; step++) {
            Arms arms = Arms.random(random);
            t.choose(arms.features(), arms.legal());
          }
          group.add(t.finish(random.nextDouble()));
        }
        groups.add(group);
      }
      double[] gradient = new double[policy.network.parameterCount()];
      reinforce.lossAndGradient(groups, gradient);
      double[] w = policy.network.parameters;
      double h = 1e-6;
      for (int i = 0; i < w.length; i++) {
        double saved = w[i];
        w[i] = saved + h;
        double up = reinforce.lossAndGradient(groups, new double[w.length]).loss();
        w[i] = saved - h;
        double down = reinforce.lossAndGradient(groups, new double[w.length]).loss();
        w[i] = saved;
        assertThat(gradient[i]).as("parameter %d", i).isCloseTo((up - down) / (2 * h), Offset.offset(1e-7));
      }
    });
  }

  @Test
  void aGroupOfOneRolloutTeachesOnlyEntropy() {
    CandidatePolicy policy = CandidatePolicy.initialised(FEATURES, new int[] {4}, 1);
    Reinforce noBonus = new Reinforce(policy, new ReinforceOptions(0.01, 0));
    Trajectory t = new Trajectory(policy, new SplittableRandom(1));
    Arms arms = Arms.random(new SplittableRandom(2));
    t.choose(arms.features(), arms.legal());
    double[] gradient = new double[policy.network.parameterCount()];
    noBonus.lossAndGradient(List.of(List.of(t.finish(5.0))), gradient);
    // its own mean is its baseline: advantage 0, so no policy-gradient signal at all
    assertThat(gradient).containsOnly(0.0);
  }
}
