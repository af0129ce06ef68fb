package org.rampa.json;

/** A JSON document that does not describe a valid value; the message names the JSON path. */
public final class JsonInputException extends IllegalArgumentException {
  public JsonInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
