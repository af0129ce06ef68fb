package org.rampa.heuristics.learned;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;
import org.rampa.domain.Invalid;

/**
 * The training loop: each update draws fresh instances, rolls each out several times with the
 * current policy (the per-instance baseline needs several), and takes one REINFORCE step. Every
 * random choice comes from one {@link SplittableRandom} seeded by {@link Settings#seed}, so the same
 * settings give the same weights.
 */
public final class PolicyTrainer {
  /**
   * Most episodes one training may run: 50 times the default 2000, far more than a policy of a few
   * thousand weights needs, and at about 50 ms an episode on 32 GPUs still under two hours (ten
   * million, the earlier bound, would have run for about 140 hours).
   */
  public static final int MAX_EPISODES = 100_000;

  private PolicyTrainer() {}

  /** What is trained on: instances drawn from a seed, and one rollout of an instance by a trajectory. */
  public interface Environment<I> {
    I instance(SplittableRandom random);

    /** Plays one episode of {@code instance}, choosing through {@code trajectory}; returns its return. */
    double rollout(I instance, Trajectory trajectory);
  }

  /**
   * @param episodes rollouts in all (rounded up to whole updates)
   * @param instancesPerUpdate instances drawn per update
   * @param rolloutsPerInstance rollouts per instance, whose mean return is the baseline (≥ 2, else
   *     every advantage is 0)
   */
  public record Settings(int episodes, int instancesPerUpdate, int rolloutsPerInstance, ReinforceOptions reinforce, long seed) {
    public Settings {
      if (episodes < 1 || episodes > MAX_EPISODES) {
        throw Invalid.value("episodes", episodes, "must lie in [1, " + MAX_EPISODES + "]");
      }
      if (instancesPerUpdate < 1 || instancesPerUpdate > 1024) {
        throw Invalid.value("instancesPerUpdate", instancesPerUpdate, "must lie in [1, 1024]");
      }
      if (rolloutsPerInstance < 2 || rolloutsPerInstance > 64) {
        throw Invalid.value("rolloutsPerInstance", rolloutsPerInstance, "must lie in [2, 64]",
            "several rollouts of one instance make its baseline");
      }
    }

    public int updates() {
      int perUpdate = instancesPerUpdate * rolloutsPerInstance;
      return (episodes + perUpdate - 1) / perUpdate;
    }
  }

  /** One point of the learning curve: after {@code episodes} rollouts, their mean return and entropy. */
  public record CurvePoint(int update, int episodes, double meanResult, double meanEntropy) {}

  /**
   * Trains {@code policy} in place and returns the learning curve, one point per update;
   * {@code progress} hears the number of episodes each update played.
   */
  public static <I> List<CurvePoint> train(CandidatePolicy policy, Environment<I> environment, Settings settings, IntConsumer progress) {
    Reinforce reinforce = new Reinforce(policy, settings.reinforce());
    SplittableRandom random = new SplittableRandom(settings.seed());
    List<CurvePoint> curve = new ArrayList<>();
    int played = 0;
    for (int u = 0; u < settings.updates(); u++) {
      List<List<Rollout>> groups = new ArrayList<>();
      for (int g = 0; g < settings.instancesPerUpdate(); g++) {
        I instance = environment.instance(random.split());
        List<Rollout> group = new ArrayList<>();
        for (int r = 0; r < settings.rolloutsPerInstance(); r++) {
          Trajectory trajectory = new Trajectory(policy, random.split());
          group.add(trajectory.finish(environment.rollout(instance, trajectory)));
        }
        groups.add(group);
      }
      Reinforce.Update update = reinforce.update(groups);
      int episodes = settings.instancesPerUpdate() * settings.rolloutsPerInstance();
      played += episodes;
      curve.add(new CurvePoint(u + 1, played, update.meanResult(), update.meanEntropy()));
      progress.accept(episodes);
    }
    return curve;
  }
}
