package org.rampa.domain;

/** Builds the uniform validation messages: field, value, rule and an optional "Maybe ..." hint. */
public final class Invalid {
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
    if (value.isNegative() || value.isZero()) {
      throw value(field, value, "must be a positive duration");
    }
  }

  public static void requireNonNegative(String field, java.time.Duration value) {
    if (value.isNegative()) {
      throw value(field, value, "must not be negative");
    }
  }

  public static void requireNonBlank(String field, String value) {
    if (value == null || value.isBlank()) {
      throw value(field, "\"" + value + "\"", "must not be blank");
    }
  }
}
