package fsil.eval.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;

import java.util.List;

/** JSON values of metrics: numbers with NaN as null (JSON has no NaN), arrays of them. */
public final class Values {
    /** The factory of metric values (and of the arrays and objects they fill). */
    static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private Values() {
    }

    public static JsonNode number(double v) {
        return Double.isNaN(v) ? NullNode.instance : DoubleNode.valueOf(v);
    }

    public static ArrayNode array(double[] v) {
        ArrayNode a = JSON.arrayNode(v.length);
        for (double x : v) {
            a.add(number(x));
        }
        return a;
    }

    public static ArrayNode array(int[] v) {
        ArrayNode a = JSON.arrayNode(v.length);
        for (int x : v) {
            a.add(x);
        }
        return a;
    }

    /** A number (null reads as NaN). */
    public static double toDouble(JsonNode n) {
        return n == null || n.isNull() ? Double.NaN : n.asDouble();
    }

    public static double[] toDoubles(JsonNode a) {
        double[] out = new double[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = toDouble(a.get(i));
        }
        return out;
    }

    public static int[] toInts(JsonNode a) {
        int[] out = new int[a.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = a.get(i).asInt();
        }
        return out;
    }

    /** The numbers of a list of number values, NaN (null) left out. */
    public static double[] finite(List<JsonNode> values) {
        return values.stream().mapToDouble(Values::toDouble).filter(v -> !Double.isNaN(v)).toArray();
    }
}
