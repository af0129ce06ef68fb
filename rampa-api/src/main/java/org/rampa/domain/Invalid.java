package org.rampa.domain;

/** Builds the uniform validation messages: field, value, rule and an optional "Maybe ..." hint. */
public final class Invalid {
  /**
   * The longest time one layer or one transfer may take (a layer overhead, a measured latency, a
   * link latency): the performance model sums them in nanoseconds, and with at most
   * {@link Model#MAX_LAYERS} layers such sums stay far inside {@code Duration.toNanos}' 292 years.
   */
  public static final java.time.Duration MAX_STEP_TIME = java.time.Duration.ofHours(1);

  private Invalid() {}

  public static IllegalArgumentException value(String field, Object value, String rule) {
    return new IllegalArgumentException(field + " = " + value + ": " + rule);
  }

  public static IllegalArgumentException value(String field, Object value, String rule, String hint) {
    return new IllegalArgumentException(field + " = " + value + ": " + rule + ". Maybe " + hint);
  }

  public static void requireFiniteNonNegative(String field, double value) {
    if (!Double.isFinite(value) || value < 0) {
      throw value(field, value, "must be a finite number >= 0");
    }
  }

  public static void requireFinitePositive(String field, double value) {
    if (!Double.isFinite(value) || value <= 0) {
      throw value(field, value, "must be a finite number > 0");
    }
  }

  public static void requireNonNegative(String field, long value) {
    if (value < 0) {
      throw value(field, value, "must be >= 0");
    }
  }

  public static void requirePositive(String field, java.time.Duration value) {
    requireNonNull(field, value);
    if (value.isNegative() || value.isZero()) {
      throw value(field, value, "must be a positive duration");
    }
  }

  public static void requireNonNegative(String field, java.time.Duration value) {
    if (value.isNegative()) {
      throw value(field, value, "must not be negative");
    }
  }

  /** A layer's or a transfer's time: in [0, {@link #MAX_STEP_TIME}]. */
  public static void requireStepTime(String field, java.time.Duration value) {
    requireNonNegative(field, value);
    if (value.compareTo(MAX_STEP_TIME) > 0) {
      throw value(field, value, "must be at most " + MAX_STEP_TIME + " (one layer or one transfer)");
    }
  }

  /** {@code value}, or an exception naming {@code field} when it is null (a bare NPE would name a local variable). */
  public static <T> T requireNonNull(String field, T value) {
    if (value == null) {
      throw value(field, null, "must be given, not null");
    }
    return value;
  }

  /**
   * An unmodifiable copy of {@code values}; an exception naming {@code field}, or {@code field[i]}
   * for the first null element, when the list or an element is null.
   */
  public static <T> java.util.List<T> listOf(String field, java.util.List<T> values) {
    requireNonNull(field, values);
    for (int i = 0; i < values.size(); i++) {
      requireNonNull(field + "[" + i + "]", values.get(i));
    }
    return java.util.List.copyOf(values);
  }

  public static void requireNonBlank(String field, String value) {
    if (value == null || value.isBlank()) {
      throw value(field, "\"" + value + "\"", "must not be blank");
    }
  }
}
