package org.rampa.heuristics.importance;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.rampa.domain.Invalid;
import org.rampa.domain.ServiceRequest;

/**
 * What services are expected to arrive: a weighted set of {@link ServiceClass}es. Immutable.
 *
 * <p>The probability of a class is its weight over the total. An empty forecast is allowed (no
 * history yet); forecast-driven importance models then give every GPU cost 0.
 */
public final class WorkloadForecast {

  private static final WorkloadForecast EMPTY = new WorkloadForecast(List.of());

  private final List<ServiceClass> classes;
  private final double[] cumulative;
  private final double totalWeight;

  private WorkloadForecast(List<ServiceClass> classes) {
    this.classes = List.copyOf(classes);
    this.cumulative = new double[this.classes.size()];
    double sum = 0;
    for (int i = 0; i < this.classes.size(); i++) {
      sum += this.classes.get(i).weight();
      cumulative[i] = sum;
    }
    if (!Double.isFinite(sum)) {
      throw Invalid.value("forecast.totalWeight", sum, "must be finite", "scale the weights down");
    }
    this.totalWeight = sum;
  }

  public static WorkloadForecast empty() {
    return EMPTY;
  }

  public static WorkloadForecast of(List<ServiceClass> classes) {
    return classes.isEmpty() ? EMPTY : new WorkloadForecast(classes);
  }

  public static Builder builder() {
    return new Builder();
  }

  public List<ServiceClass> classes() {
    return classes;
  }

  public boolean isEmpty() {
    return classes.isEmpty();
  }

  /** Sum of the classes' weights (0 when empty). */
  public double totalWeight() {
    return totalWeight;
  }

  /** Probability that the next arrival is of class {@code index}. */
  public double probability(int index) {
    return classes.get(index).weight() / totalWeight;
  }

  /** Index of a class drawn with probability proportional to its weight. */
  public int sampleIndex(SplittableRandom random) {
    if (isEmpty()) {
      throw Invalid.value("forecast.classes", "[]", "cannot sample from an empty forecast", "check isEmpty() first");
    }
    double u = random.nextDouble() * totalWeight;
    for (int i = 0; i < cumulative.length; i++) {
      if (u < cumulative[i]) {
        return i;
      }
    }
    return cumulative.length - 1;
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder("WorkloadForecast[");
    for (int i = 0; i < classes.size(); i++) {
      ServiceRequest t = classes.get(i).template();
      s.append(i == 0 ? "" : ", ").append(t.model().name()).append(" @ ").append(t.slo().requiredThroughput())
          .append(" req/s: ").append(String.format("%.3f", probability(i)));
    }
    return s.append(']').toString();
  }

  /** Collects classes in order. */
  public static final class Builder {
    private final List<ServiceClass> classes = new ArrayList<>();

    private Builder() {}

    public Builder add(ServiceRequest template, double weight) {
      classes.add(new ServiceClass(template, weight));
      return this;
    }

    public WorkloadForecast build() {
      return of(classes);
    }
  }
}
