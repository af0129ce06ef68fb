package org.rampa.examples.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Parses an ISO-8601 duration option; a bad one is reported with an example, not a Java exception. */
final class IsoDuration implements ITypeConverter<Duration> {
  @Override
  public Duration convert(String value) {
    try {
      return Duration.parse(value);
    } catch (DateTimeParseException e) {
      throw new TypeConversionException("'" + value + "' is not an ISO-8601 duration. Maybe PT2S (2 seconds) or PT0.5S");
    }
  }
}
