package org.rampa.catalog;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A small RFC 4180 reader for the catalog resources: quoted fields, '#' comment lines, a header. */
final class CsvTable {
  private final String source;
  private final Map<String, Integer> columns = new HashMap<>();
  private final List<List<String>> rows = new ArrayList<>();

  private CsvTable(String source) {
    this.source = source;
  }

  static CsvTable resource(String name) {
    try (InputStream in = CsvTable.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("catalog resource " + name + " is missing from the rampa-api jar");
      }
      return parse(name, new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read catalog resource " + name, e);
    }
  }

  private static CsvTable parse(String source, BufferedReader reader) throws IOException {
    CsvTable t = new CsvTable(source);
    String line;
    List<String> header = null;
    while ((line = reader.readLine()) != null) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      List<String> fields = split(line);
      if (header == null) {
        header = fields;
        for (int i = 0; i < header.size(); i++) {
          t.columns.put(header.get(i), i);
        }
      } else {
        t.rows.add(fields);
      }
    }
    return t;
  }

  private static List<String> split(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    boolean quoted = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
          cur.append('"');
          i++;
        } else if (c == '"') {
          quoted = false;
        } else {
          cur.append(c);
        }
      } else if (c == '"') {
        quoted = true;
      } else if (c == ',') {
        out.add(cur.toString());
        cur.setLength(0);
      } else {
        cur.append(c);
      }
    }
    out.add(cur.toString());
    return out;
  }

  int size() {
    return rows.size();
  }

  String get(int row, String column) {
    Integer i = columns.get(column);
    if (i == null) {
      throw new IllegalStateException(source + " has no column \"" + column + "\"");
    }
    List<String> r = rows.get(row);
    return i < r.size() ? r.get(i).trim() : "";
  }

  double number(int row, String column) {
    String v = get(row, column);
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw new IllegalStateException(source + " row " + (row + 1) + " column " + column + ": \"" + v + "\" is not a number", e);
    }
  }
}
