package org.rampa.heuristics.importance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.rampa.domain.ServiceRequest;
import org.rampa.testing.RandomInstances;

class SlidingWindowForecastTest {

  /** Class templates: different models; arrivals are copies with fresh ids. */
  private static List<ServiceRequest> templates(RandomInstances ri, int count) {
    List<ServiceRequest> t = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      t.add(TestInstances.request(ri, "template" + i));
    }
    return t;
  }

  private static ServiceRequest arrival(ServiceRequest template, int n) {
    return ServiceRequest.builder().from(template).id("arrival" + n).build();
  }

  /** Weight per model name in a snapshot. */
  private static Map<String, Double> weights(WorkloadForecast f) {
    Map<String, Double> w = new HashMap<>();
    f.classes().forEach(c -> w.merge(c.template().model().name() + "/" + c.template().slo(), c.weight(), Double::sum));
    return w;
  }

  private static String key(ServiceRequest r) {
    return r.model().name() + "/" + r.slo();
  }

  @Test
  void aCountWindowHoldsExactlyTheLastNArrivals() {
    for (long seed = 0; seed < 30; seed++) {
      RandomInstances ri = new RandomInstances(seed);
      List<ServiceRequest> classes = templates(ri, 2 + ri.random().nextInt(5));
      int n = 1 + ri.random().nextInt(20);
      SlidingWindowForecast window = SlidingWindowForecast.lastArrivals(n);
      List<ServiceRequest> history = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        // the mix drifts: later arrivals favour later classes
        int c = Math.min(classes.size() - 1, ri.random().nextInt(1 + i * classes.size() / 100 + 1));
        ServiceRequest a = arrival(classes.get(c), i);
        history.add(a);
        window.observe(a);
        Map<String, Double> expected = new HashMap<>();
        for (ServiceRequest r : history.subList(Math.max(0, history.size() - n), history.size())) {
          expected.merge(key(r), 1.0, Double::sum);
        }
        WorkloadForecast f = window.snapshot();
        assertThat(weights(f)).as("seed %d after %d arrivals", seed, i + 1).isEqualTo(expected);
        assertThat(window.size()).isEqualTo(Math.min(n, i + 1));
        // the template of a class is its latest arrival
        for (ServiceClass sc : f.classes()) {
          ServiceRequest latest = history.stream().filter(r -> key(r).equals(key(sc.template()))).reduce((x, y) -> y).orElseThrow();
          assertThat(sc.template().id()).isEqualTo(latest.id());
        }
      }
    }
  }

  @Test
  void theLongestWindowGivesAForecastWithoutOverflow() {
    SlidingWindowForecast window = SlidingWindowForecast.lastDuration(Duration.ofSeconds(Long.MAX_VALUE));
    ServiceRequest template = templates(new RandomInstances(1), 1).get(0);
    window.observe(ServiceRequest.builder().from(arrival(template, 0)).arrivalTime(Duration.ofSeconds(5)).build());
    assertThat(weights(window.snapshot())).containsOnlyKeys(key(template));
    assertThat(weights(window.snapshot()).get(key(template))).isPositive().isCloseTo(1.0 / Long.MAX_VALUE, within(1e-30));
  }

  @Test
  void aTimeWindowGivesRatesAndForgetsOldArrivals() {
    for (long seed = 0; seed < 30; seed++) {
      RandomInstances ri = new RandomInstances(seed);
      List<ServiceRequest> classes = templates(ri, 3);
      Duration span = Duration.ofSeconds(1 + ri.random().nextInt(30));
      SlidingWindowForecast window = SlidingWindowForecast.lastDuration(span);
      List<ServiceRequest> history = new ArrayList<>();
      List<Duration> times = new ArrayList<>();
      Duration now = Duration.ZERO;
      for (int i = 0; i < 80; i++) {
        now = now.plusMillis(ri.random().nextInt(2000));
        ServiceRequest a = ServiceRequest.builder().from(arrival(classes.get(ri.random().nextInt(3)), i)).arrivalTime(now).build();
        history.add(a);
        times.add(now);
        window.observe(a);
        Map<String, Double> expected = new HashMap<>();
        for (int j = 0; j < history.size(); j++) {
          if (times.get(j).compareTo(now.minus(span)) >= 0) {
            expected.merge(key(history.get(j)), 1.0 / span.toSeconds(), Double::sum);
          }
        }
        Map<String, Double> actual = weights(window.snapshot());
        assertThat(actual.keySet()).as("seed %d at %s", seed, now).isEqualTo(expected.keySet());
        for (Map.Entry<String, Double> e : expected.entrySet()) {
          assertThat(actual.get(e.getKey())).as("seed %d", seed).isCloseTo(e.getValue(), within(1e-9));
        }
      }
      WorkloadForecast before = window.snapshot();
      assertThat(window.snapshot()).as("unchanged window, same snapshot").isSameAs(before);
      window.advanceTo(now.plus(span).plusNanos(1));
      assertThat(window.snapshot().isEmpty()).as("seed %d: everything forgotten", seed).isTrue();
      assertThat(before.isEmpty()).as("the old snapshot is immutable").isFalse();
      Duration late = now;
      assertThatThrownBy(() -> window.advanceTo(late)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Maybe");
    }
  }
}
