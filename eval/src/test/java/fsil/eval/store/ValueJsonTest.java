package fsil.eval.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import fsil.eval.metrics.Value;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The metrics column written and read as tokens: the same bytes as the Jackson trees rows were written with before
 * (so old and new rows, and their checksums, agree), and every value read back as itself.
 */
class ValueJsonTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** The tree the store built before it wrote values as tokens. */
    private static JsonNode tree(Value v) {
        if (v instanceof Value.Real r) {
            return DoubleNode.valueOf(r.value());
        } else if (v instanceof Value.Int i) {
            long x = i.value();
            return x == (int) x ? IntNode.valueOf((int) x) : LongNode.valueOf(x);
        } else if (v instanceof Value.Arr a) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            a.items().forEach(x -> out.add(tree(x)));
            return out;
        } else if (v instanceof Value.Obj o) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            o.fields().forEach((k, x) -> out.set(k, tree(x)));
            return out;
        }
        return NullNode.instance;
    }

    private static Value random(SplittableRandom rng, int depth) {
        int kind = depth > 3 ? rng.nextInt(3) : rng.nextInt(5);
        switch (kind) {
            case 0:
                return switch (rng.nextInt(4)) {
                    case 0 -> Value.of(rng.nextDouble());
                    case 1 -> Value.of(Double.longBitsToDouble(rng.nextLong())); // any double, NaN as null
                    case 2 -> Value.of(rng.nextDouble(-1e-300, 1e-300));
                    default -> Value.of((double) rng.nextInt(-1000, 1000));
                };
            case 1:
                return rng.nextBoolean() ? Value.of(rng.nextInt(-100, 100)) : Value.of(rng.nextLong());
            case 2:
                return Value.NULL;
            case 3: {
                List<Value> items = new ArrayList<>();
                for (int i = rng.nextInt(6); i > 0; i--) {
                    items.add(random(rng, depth + 1));
                }
                return Value.array(items);
            }
            default: {
                Map<String, Value> fields = new LinkedHashMap<>();
                for (int i = rng.nextInt(5); i > 0; i--) {
                    fields.put("f" + rng.nextInt(8) + (rng.nextInt(4) == 0 ? ", \"ü\"\n" : ""), random(rng, depth + 1));
                }
                return new Value.Obj(fields);
            }
        }
    }

    @Test
    void sameBytesAsTheTreesRowsWereWrittenWithAndReadBackAsTheValue() throws Exception {
        SplittableRandom rng = new SplittableRandom(20261129);
        for (int n = 0; n < 3000; n++) {
            Value v = random(rng, 0);
            String text = ValueJson.text(v);
            assertEquals(MAPPER.writeValueAsString(tree(v)), text);
            if (!text.contains("Infinity")) { // the trees read an infinity back as text: a value they lost
                assertEquals(tree(v), MAPPER.readTree(text), text);
            }
            assertEquals(v, ValueJson.parse(text), text);
        }
    }

    @Test
    void edgesOfTheNumbers() {
        for (Value v : List.of(Value.of(Long.MAX_VALUE), Value.of(Long.MIN_VALUE), Value.of((long) Integer.MAX_VALUE + 1),
                Value.of(-0.0), Value.of(Double.MIN_VALUE), Value.of(Double.MAX_VALUE), Value.of(1e-320),
                Value.of(Double.POSITIVE_INFINITY), Value.of(Double.NEGATIVE_INFINITY), Value.of(Double.NaN))) {
            assertEquals(v, ValueJson.parse(ValueJson.text(v)), v.toString());
        }
        assertEquals("null", ValueJson.text(Value.of(Double.NaN)));
        assertEquals("[1,2.0,null]", ValueJson.text(Value.array(List.of(Value.of(1), Value.of(2.0), Value.NULL))));
    }

    @Test
    void whatIsNoMetricValueIsRefusedInOneLine() {
        for (String bad : List.of("", "{", "[1,]", "{\"a\":\"text\"}", "{\"a\":true}", "1 2", "123456789012345678901234567890",
                "{\"a\":NaN}")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ValueJson.parse(bad), bad);
            assertTrue(!e.getMessage().contains("\n"), e.getMessage());
        }
    }
}
