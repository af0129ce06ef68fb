package org.rampa.examples.learned;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.rampa.colocation.ColocationProblem;
import org.rampa.colocation.ColocationService;
import org.rampa.colocation.ColocationVerifier;
import org.rampa.colocation.GpuPool;
import org.rampa.domain.share.MpsShare;
import org.rampa.heuristics.learned.ColocationEnvironment;
import org.rampa.testing.Property;

class DemandMixesTest {

  @Test
  void e2MixesHaveE2sDensityOnTheTrainingCluster() {
    Property.forSeeds("e2 mixes", 20, seed -> {
      int gpus = 8 + new SplittableRandom(seed).nextInt(120);
      ColocationProblem mix = DemandMixes.e2(new SplittableRandom(seed), gpus);
      assertThat(mix.pools()).extracting(GpuPool::count).containsExactly(gpus);
      assertThat(mix.services().size()).isBetween(Math.max(2, (int) Math.round(0.1 * gpus)), Math.max(2, (int) Math.round(0.4 * gpus)));
      assertThat(mix.services()).extracting(ColocationService::batches).allSatisfy(b -> assertThat(b).startsWith(1));
      assertThat(DemandMixes.e2(new SplittableRandom(seed), gpus)).isEqualTo(mix);
    });
  }

  /** Uniform over the legal candidates: the widest spread of plans an untrained policy can make. */
  private static ColocationEnvironment.Chooser uniform(SplittableRandom random) {
    return (features, legal) -> {
      int i;
      do {
        i = random.nextInt(legal.length);
      } while (!legal[i]);
      return i;
    };
  }

  @Test
  void randomEpisodesOnE2MixesPassTheVerifierAndUseMpsShares() {
    int[] mpsSegments = {0};
    Property.forSeeds("random e2 episodes verify", 8, seed -> {
      SplittableRandom random = new SplittableRandom(seed);
      ColocationProblem mix = DemandMixes.draw(DemandMixes.Family.E2, random, 6 + random.nextInt(20));
      ColocationEnvironment.Outcome outcome = new ColocationEnvironment(mix, 1 + random.nextInt(8)).run(uniform(random));
      assertThat(ColocationVerifier.check(mix, outcome.plan())).isEmpty();
      assertThat(outcome.plan().scale()).isPositive();
      assertThat(outcome.fellBackAt().isPresent()).isEqualTo(outcome.fallbackSteps() > 0);
      mpsSegments[0] += (int) outcome.plan().gpus().stream().flatMap(g -> g.segments().stream())
          .filter(s -> s.placement() instanceof MpsShare).count();
    });
    // unlike ParvaGPU's measured tables, E2's time model prices MPS shares: the policy meets them in training
    assertThat(mpsSegments[0]).isPositive();
  }

  @Test
  void anUnknownFamilyIsRefusedByName() {
    assertThat(DemandMixes.Family.of("both")).isEqualTo(DemandMixes.Family.BOTH);
    assertThatThrownBy(() -> DemandMixes.Family.of("e3")).hasMessageContaining("--mix-family = e3");
  }
}
