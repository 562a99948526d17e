package fsil.eval.store;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import fsil.eval.metrics.Value;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Metric values as the JSON of a row's {@code metrics} column, written and read as a stream of tokens (no tree in
 * between). The mapping is one to one (an integer as an integer, a number as a double, NaN as null), so a value
 * written and read back is the value; the bytes are those Jackson writes for the same tree of nodes, as rows had
 * before (an integer within int range as an int, a double by {@link Double#toString}).
 */
public final class ValueJson {
    private static final JsonFactory JSON = new JsonFactory();

    private ValueJson() {
    }

    /** A value as compact JSON text. */
    public static String text(Value v) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(out)) {
            write(g, v);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return out.toString();
    }

    static void write(JsonGenerator g, Value v) throws IOException {
        if (v instanceof Value.Real r) {
            g.writeNumber(r.value());
        } else if (v instanceof Value.Int i) {
            long x = i.value();
            if (x == (int) x) {
                g.writeNumber((int) x);
            } else {
                g.writeNumber(x);
            }
        } else if (v instanceof Value.Arr a) {
            g.writeStartArray();
            for (Value item : a.items()) {
                write(g, item);
            }
            g.writeEndArray();
        } else if (v instanceof Value.Obj o) {
            g.writeStartObject();
            for (Map.Entry<String, Value> e : o.fields().entrySet()) {
                g.writeFieldName(e.getKey());
                write(g, e.getValue());
            }
            g.writeEndObject();
        } else {
            g.writeNull();
        }
    }

    /**
     * JSON text as a value: numbers, arrays, objects and null; nothing may follow it.
     *
     * @throws IllegalArgumentException for text that is not JSON, holds strings or booleans, or an integer beyond a
     *                                  long's range
     */
    public static Value parse(String json) {
        try (JsonParser p = JSON.createParser(json)) {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw new IllegalArgumentException("no JSON value");
            }
            Value v = read(p, t);
            if (p.nextToken() != null) {
                throw new IllegalArgumentException("text after the JSON value");
            }
            return v;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not valid JSON (" + e.getOriginalMessage() + ")");
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a String source does not fail
        }
    }

    private static Value read(JsonParser p, JsonToken t) throws IOException {
        switch (t) {
            case VALUE_NUMBER_INT:
                if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                    throw new IllegalArgumentException("an integer beyond a long's range (" + p.getText() + ")");
                }
                return Value.of(p.getLongValue());
            case VALUE_NUMBER_FLOAT:
                return Value.of(p.getDoubleValue());
            case VALUE_NULL:
                return Value.NULL;
            case VALUE_STRING: // Jackson writes an infinite double as a quoted name
                if (p.getText().equals("Infinity") || p.getText().equals("-Infinity")) {
                    return Value.of(Double.parseDouble(p.getText()));
                }
                throw new IllegalArgumentException("a metric value holds the text '" + p.getText()
                        + "': metrics store numbers, arrays and objects");
            case START_ARRAY: {
                List<Value> items = new ArrayList<>();
                for (JsonToken x = p.nextToken(); x != JsonToken.END_ARRAY; x = p.nextToken()) {
                    items.add(read(p, x));
                }
                return Value.array(items);
            }
            case START_OBJECT: {
                Map<String, Value> fields = new LinkedHashMap<>();
                for (JsonToken x = p.nextToken(); x != JsonToken.END_OBJECT; x = p.nextToken()) {
                    String name = p.currentName();
                    fields.put(name, read(p, p.nextToken()));
                }
                return new Value.Obj(fields);
            }
            default:
                throw new IllegalArgumentException("a metric value holds " + p.getText()
                        + ": metrics store numbers, arrays and objects");
        }
    }

    /**
     * A metric's value written into a row of {@code units.csv} and read back from the row's text, as a run stores it
     * and {@code fsil report} reads it (null for a value not stored).
     */
    public static Value throughRow(String metric, Value v) {
        Map<String, Value> metrics = new LinkedHashMap<>();
        if (v != null) {
            metrics.put(metric, v);
        }
        UnitRecord r = new UnitRecord("m", "m", "d", "p", "s", 0, 0, 1, 0, 0, UnitRecord.OK, "", 0,
                new Value.Obj(metrics));
        return UnitStore.decode(UnitStore.encode(r)).value(metric);
    }
}
