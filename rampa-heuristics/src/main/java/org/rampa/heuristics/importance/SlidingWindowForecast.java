package org.rampa.heuristics.importance;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.rampa.domain.Invalid;
import org.rampa.domain.ServiceRequest;

/**
 * A forecast learnt from recent arrivals: "the next services look like the last N" or "like
 * those of the last T seconds". Mutable and confined to one thread (the simulation loop); it hands
 * out immutable {@link WorkloadForecast} snapshots that any thread may use.
 *
 * <p>Arrivals are grouped into classes by model, SLO and K_max; a class's template is its most
 * recent arrival. Weights: with a count window, the number of arrivals of the class in the window;
 * with a time window, its arrival rate in requests per second (arrivals in the window / T). A time
 * window holds the arrivals at times {@code t} with {@code now - T <= t <= now}, where {@code now}
 * is the latest arrival or {@link #advanceTo} time.
 */
public final class SlidingWindowForecast {

  private record Arrival(ClassKey key, Duration at) {}

  /** Arrivals of one class in the window and the latest of them. */
  private static final class Tally {
    int count;
    ServiceRequest latest;
  }

  private final int maxArrivals;
  private final Duration window;
  private final Deque<Arrival> arrivals = new ArrayDeque<>();
  private final Map<ClassKey, Tally> tallies = new LinkedHashMap<>();
  private Duration now = Duration.ZERO;
  private WorkloadForecast snapshot = WorkloadForecast.empty();
  private boolean changed;

  private SlidingWindowForecast(int maxArrivals, Duration window) {
    this.maxArrivals = maxArrivals;
    this.window = window;
  }

  /** Remembers the last {@code n} arrivals. */
  public static SlidingWindowForecast lastArrivals(int n) {
    if (n < 1) {
      throw Invalid.value("window.arrivals", n, "must be >= 1", "use a few hundred arrivals for a stable mix");
    }
    return new SlidingWindowForecast(n, null);
  }

  /** Remembers the arrivals of the last {@code window}. */
  public static SlidingWindowForecast lastDuration(Duration window) {
    Invalid.requirePositive("window.duration", Objects.requireNonNull(window, "window"));
    return new SlidingWindowForecast(Integer.MAX_VALUE, window);
  }

  /** Records an arrival at {@code request.arrivalTime()} (at the current time if it has none). */
  public void observe(ServiceRequest request) {
    observe(request, request.arrivalTime().orElse(now));
  }

  /** Records an arrival at time {@code at}, which may not lie before an earlier one. */
  public void observe(ServiceRequest request, Duration at) {
    Objects.requireNonNull(request, "request");
    advanceTo(at);
    ClassKey key = ClassKey.of(request);
    arrivals.addLast(new Arrival(key, at));
    Tally tally = tallies.computeIfAbsent(key, k -> new Tally());
    tally.count++;
    tally.latest = request;
    while (arrivals.size() > maxArrivals) {
      forget(arrivals.removeFirst());
    }
    changed = true;
  }

  /** Moves the clock to {@code time}, forgetting arrivals older than the time window. */
  public void advanceTo(Duration time) {
    Objects.requireNonNull(time, "time");
    if (time.compareTo(now) < 0) {
      throw Invalid.value("time", time, "lies before the latest observed time " + now,
          "feed arrivals in time order, or use one window per simulation run");
    }
    now = time;
    if (window != null) {
      Duration oldest = now.minus(window);
      while (!arrivals.isEmpty() && arrivals.peekFirst().at().compareTo(oldest) < 0) {
        forget(arrivals.removeFirst());
        changed = true;
      }
    }
  }

  private void forget(Arrival a) {
    Tally tally = tallies.get(a.key());
    if (--tally.count == 0) {
      tallies.remove(a.key());
    }
  }

  /** Arrivals currently remembered. */
  public int size() {
    return arrivals.size();
  }

  /** The forecast the window implies now; the same instance until the window changes. */
  public WorkloadForecast snapshot() {
    if (changed) {
      // seconds and nanos apart: toNanos() overflows for windows beyond 292 years
      double scale = window == null ? 1.0 : 1.0 / (window.getSeconds() + window.getNano() * 1e-9);
      List<ServiceClass> classes = new ArrayList<>(tallies.size());
      tallies.values().forEach(t -> classes.add(new ServiceClass(t.latest, t.count * scale)));
      snapshot = WorkloadForecast.of(classes);
      changed = false;
    }
    return snapshot;
  }
}
