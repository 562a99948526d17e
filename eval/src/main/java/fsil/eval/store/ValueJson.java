package fsil.eval.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import fsil.eval.metrics.Value;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Metric values to and from the JSON of a row's {@code metrics} column. The mapping is one to one (an integer as an
 * integer, a number as a double), so a value written and read back is the value, and rows keep the bytes they had
 * when metrics built Jackson trees themselves.
 */
public final class ValueJson {
    private ValueJson() {
    }

    public static JsonNode toJson(Value v) {
        if (v instanceof Value.Real r) {
            return DoubleNode.valueOf(r.value());
        } else if (v instanceof Value.Int i) {
            long x = i.value();
            return x == (int) x ? IntNode.valueOf((int) x) : LongNode.valueOf(x);
        } else if (v instanceof Value.Arr a) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode(a.size());
            for (Value item : a.items()) {
                out.add(toJson(item));
            }
            return out;
        } else if (v instanceof Value.Obj o) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            o.fields().forEach((k, x) -> out.set(k, toJson(x)));
            return out;
        }
        return NullNode.instance;
    }

    public static Value fromJson(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return Value.NULL;
        }
        if (n.isIntegralNumber()) {
            return Value.of(n.asLong());
        }
        if (n.isNumber()) {
            return Value.of(n.asDouble());
        }
        if (n.isArray()) {
            List<Value> items = new ArrayList<>(n.size());
            n.forEach(x -> items.add(fromJson(x)));
            return Value.array(items);
        }
        if (n.isObject()) {
            Map<String, Value> fields = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                fields.put(e.getKey(), fromJson(e.getValue()));
            }
            return new Value.Obj(fields);
        }
        throw new IllegalArgumentException("a metric value holds " + n.getNodeType() + " (" + n + "): metrics store "
                + "numbers, arrays and objects");
    }

    /**
     * A metric's value written into a row of {@code units.csv} and read back from the row's text, as a run stores it
     * and {@code fsil report} reads it (null for a value not stored).
     */
    public static Value throughRow(String metric, Value v) {
        ObjectNode metrics = JsonNodeFactory.instance.objectNode();
        if (v != null) {
            metrics.set(metric, toJson(v));
        }
        UnitRecord r = new UnitRecord("m", "m", "d", "p", "s", 0, 0, 1, 0, 0, UnitRecord.OK, "", 0, metrics);
        return UnitStore.decode(UnitStore.encode(r)).value(metric);
    }
}
