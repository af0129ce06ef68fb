package org.rampa.heuristics.importance;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.rampa.domain.Cluster;
import org.rampa.domain.ServiceRequest;

/**
 * What a forecast-driven model derives from one class of service on one cluster, remembered per
 * class ({@link ClassKey}: model, SLO, K_max) rather than per forecast snapshot. A sliding-window
 * forecast is a new snapshot at every arrival, but only its weights change, so a table that sums
 * per-class facts over the classes recomputes only the sums. The facts must depend on the class and
 * the cluster alone (not on the request's id, arrival or lifetime, nor on the state). Safe to share
 * between threads; forgets everything when the cluster changes or when it holds
 * {@value #MAX_CLASSES} classes (far more than any forecast's mix).
 *
 * @param <V> the fact
 */
final class PerClassMemo<V> {

  static final int MAX_CLASSES = 4096;

  private record Known<V>(Cluster cluster, Map<ClassKey, V> byClass) {}

  private volatile Known<V> known;

  /** The fact for {@code template}'s class on {@code cluster}, {@code compute}d once per class. */
  V get(Cluster cluster, ServiceRequest template, Function<ServiceRequest, V> compute) {
    Known<V> k = known;
    if (k == null || k.cluster() != cluster || k.byClass().size() >= MAX_CLASSES) {
      k = new Known<>(cluster, new ConcurrentHashMap<>());
      known = k;
    }
    return k.byClass().computeIfAbsent(ClassKey.of(template), key -> compute.apply(template));
  }
}
