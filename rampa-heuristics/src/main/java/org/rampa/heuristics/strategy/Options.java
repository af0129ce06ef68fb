package org.rampa.heuristics.strategy;

import org.rampa.domain.Invalid;
import org.rampa.strategy.StrategyOptions;

/** Reads the heuristic strategies' settings from {@link StrategyOptions#extra()}. */
final class Options {
  private Options() {}

  static int positiveInt(StrategyOptions options, String key, int fallback) {
    String value = options.extra().get(key);
    if (value == null) {
      return fallback;
    }
    try {
      int v = Integer.parseInt(value.trim());
      if (v < 1) {
        throw Invalid.value("options.extra[" + key + "]", value, "must be an integer >= 1");
      }
      return v;
    } catch (NumberFormatException e) {
      throw Invalid.value("options.extra[" + key + "]", value, "must be an integer >= 1", "write it as digits, e.g. \"" + fallback + "\"");
    }
  }
}
