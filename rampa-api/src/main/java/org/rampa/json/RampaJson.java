package org.rampa.json;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Pattern;

/**
 * Reads and writes RAMPA's values as JSON. Durations are ISO-8601 strings ("PT0.0015S"), sizes are
 * bytes, rates are per second. Unknown fields, nulls, fractions where an integer belongs and
 * strings where a number belongs and keys given twice are errors (a typo must not silently become a default); files are
 * read through {@link InputFiles} (bounded, strict UTF-8). Every read error names the JSON path of
 * the offending value.
 */
public final class RampaJson {

  private static final ObjectMapper MAPPER = JsonMapper.builder()
      .addModule(new Jdk8Module())
      .addModule(new JavaTimeModule())
      .addModule(new SimpleModule().addDeserializer(Duration.class, new IsoDurationDeserializer()))
      .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
      .enable(SerializationFeature.INDENT_OUTPUT)
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      // {"batch": 0, "batch": 8} would otherwise keep the last value without a word
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      // 1.5 bytes is a typo, not 1 byte; "12" is a string, not a number
      .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
      .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
      .withCoercionConfig(LogicalType.Textual, c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
          .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
      // null is not "absent": a field written as null would otherwise silently take its default
      .defaultSetterInfo(JsonSetter.Value.forValueNulls(Nulls.FAIL, Nulls.FAIL))
      // ... except where null is how an absent optional is written
      .withConfigOverride(Optional.class, o -> o.setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.AS_EMPTY)))
      .withConfigOverride(OptionalDouble.class, o -> o.setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.AS_EMPTY)))
      .withConfigOverride(OptionalLong.class, o -> o.setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.AS_EMPTY)))
      .withConfigOverride(OptionalInt.class, o -> o.setSetterInfo(JsonSetter.Value.forValueNulls(Nulls.AS_EMPTY)))
      .build();

  /** Jackson's advice to enable coercion, cut from messages: coercion is what must stay off here. */
  private static final Pattern COERCION_ADVICE = Pattern.compile("\\s*\\(but (could|might) if coercion[^)]*\\)");

  private RampaJson() {}

  /** Durations only as ISO-8601 text: a bare number has no unit (5 could be seconds or milliseconds). */
  private static final class IsoDurationDeserializer extends StdScalarDeserializer<Duration> {
    IsoDurationDeserializer() {
      super(Duration.class);
    }

    @Override
    public Duration deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
      if (!p.hasToken(JsonToken.VALUE_STRING)) {
        return (Duration) ctxt.handleUnexpectedToken(Duration.class, p.currentToken(), p,
            "a duration must be an ISO-8601 string such as \"PT0.5S\" (a bare number has no unit)");
      }
      try {
        return Duration.parse(p.getText().trim());
      } catch (DateTimeParseException e) {
        return (Duration) ctxt.handleWeirdStringValue(Duration.class, p.getText(), "not an ISO-8601 duration such as \"PT0.5S\"");
      }
    }
  }

  /** The configured mapper, for callers embedding RAMPA values in their own documents. */
  public static ObjectMapper mapper() {
    return MAPPER.copy();
  }

  public static String write(Object value) {
    try {
      return MAPPER.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write " + value.getClass().getSimpleName() + " as JSON: " + e.getOriginalMessage(), e);
    }
  }

  public static <T> T read(String json, Class<T> type) {
    try {
      return MAPPER.readValue(json, type);
    } catch (JsonProcessingException e) {
      throw new JsonInputException(describe(e, type), e);
    }
  }

  public static <T> T read(Path file, Class<T> type) {
    try {
      return read(InputFiles.readText(file), type);
    } catch (JsonInputException e) {
      throw new JsonInputException(file + ": " + e.getMessage(), e);
    }
  }

  private static String describe(JsonProcessingException e, Class<?> type) {
    String path = "$";
    if (e instanceof JsonMappingException m) {
      StringBuilder p = new StringBuilder("$");
      for (JsonMappingException.Reference r : m.getPath()) {
        if (r.getIndex() >= 0) {
          p.append('[').append(r.getIndex()).append(']');
        } else if (r.getFieldName() != null) {
          p.append('.').append(r.getFieldName());
        }
      }
      path = p.toString();
    }
    String cause = rootMessage(e);
    String where = e.getLocation() == null ? "" : " (line " + e.getLocation().getLineNr() + ", column " + e.getLocation().getColumnNr() + ")";
    return "invalid " + type.getSimpleName() + " JSON at " + path + where + ": " + cause;
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) {
      t = t.getCause();
    }
    if (t instanceof JsonProcessingException j) {
      return COERCION_ADVICE.matcher(j.getOriginalMessage()).replaceAll("");
    }
    return t.getMessage();
  }
}
