package org.rampa.strategy;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.rampa.domain.Invalid;

/**
 * Reads a strategy family's settings from {@link StrategyOptions#extra()} (where the JSON problem
 * document's {@code options} put them) into that family's typed options record, in one place: every
 * key must be one the family knows, or the call fails naming the key and listing the known ones,
 * and every value is parsed and checked once. Strategies then read their record, never a string.
 */
public final class ExtraOptions {

  private final String family;
  private final Map<String, String> extra;

  private ExtraOptions(String family, Map<String, String> extra) {
    this.family = family;
    this.extra = extra;
  }

  /**
   * The extra options of {@code options} for strategy family {@code family}, which knows the keys
   * {@code known}.
   *
   * @throws IllegalArgumentException naming the first unknown key and listing the known ones
   */
  public static ExtraOptions of(StrategyOptions options, String family, Set<String> known) {
    for (String key : new TreeSet<>(options.extra().keySet())) {
      if (!known.contains(key)) {
        throw Invalid.value("options.extra." + key, options.extra().get(key),
            "is not an option of " + family + " (known: " + new TreeSet<>(known) + ")",
            "check the spelling, or drop options meant for another strategy");
      }
    }
    return new ExtraOptions(family, options.extra());
  }

  /** The integer option {@code key}, at least 1, or {@code fallback} when absent. */
  public int positiveInt(String key, int fallback) {
    String value = extra.get(key);
    if (value == null) {
      return fallback;
    }
    try {
      int v = Integer.parseInt(value.trim());
      if (v >= 1) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below with the rule
    }
    throw Invalid.value("options.extra." + key, value, "must be an integer >= 1 (" + family + ")",
        "write it as digits, e.g. \"" + fallback + "\"");
  }

  /** The option {@code key}, one of {@code allowed}, or {@code fallback} when absent. */
  public String choice(String key, String fallback, List<String> allowed) {
    String value = extra.getOrDefault(key, fallback);
    if (!allowed.contains(value)) {
      throw Invalid.value("options.extra." + key, value, "must be one of " + allowed + " (" + family + ")",
          "leave it out for \"" + fallback + "\"");
    }
    return value;
  }

  /** The free-text option {@code key}, when given. */
  public Optional<String> text(String key) {
    return Optional.ofNullable(extra.get(key));
  }
}
