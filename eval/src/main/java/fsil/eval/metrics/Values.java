package fsil.eval.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.NumericNode;

import java.util.List;

/** JSON values of metrics: numbers with NaN as null (JSON has no NaN), arrays of them. */
public final class Values {
    /** The factory of metric values (and of the arrays and objects they fill). */
    static final JsonNodeFactory JSON = new SharedSmallIntegers();

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

    /**
     * Integers 0 to 4,095 (per-episode counts, micro-bin indices and counts) as shared nodes, as
     * {@code Integer.valueOf} shares small Integers: the nodes are immutable, and a run keeps every unit's values
     * until its summaries are written, so shared nodes spare the collector most of the objects it would copy.
     */
    private static final class SharedSmallIntegers extends JsonNodeFactory {
        private static final long serialVersionUID = 1L;
        private static final int SHARED = 4096;
        private static final IntNode[] INTS = new IntNode[SHARED];
        private static final LongNode[] LONGS = new LongNode[SHARED];

        static {
            for (int i = 0; i < SHARED; i++) {
                INTS[i] = new IntNode(i);
                LONGS[i] = new LongNode(i);
            }
        }

        @Override
        public NumericNode numberNode(int v) {
            return v >= 0 && v < SHARED ? INTS[v] : super.numberNode(v);
        }

        @Override
        public NumericNode numberNode(long v) {
            return v >= 0 && v < SHARED ? LONGS[(int) v] : super.numberNode(v);
        }
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
