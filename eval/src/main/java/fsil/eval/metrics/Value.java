package fsil.eval.metrics;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a metric stores for one unit, in plain JDK types: a number, an integer, an array, an object (fields in
 * insertion order) or {@link #NULL}. The store writes it as JSON in the unit's row of {@code units.csv} (NaN as
 * null, since JSON has no NaN) and reads it back as the same tree, so a metric's summary sees what it stored.
 */
public sealed interface Value permits Value.Real, Value.Int, Value.Arr, Value.Obj, Value.Null {

    /** JSON null: a value that does not apply (read as NaN by {@link #asDouble()}). */
    Null NULL = new Null();

    /** A floating-point number (never NaN: {@link #of(double)} gives {@link #NULL} for it). */
    record Real(double value) implements Value {
        public Real {
            if (Double.isNaN(value)) {
                throw new IllegalArgumentException("NaN is stored as Value.NULL");
            }
        }

        public double asDouble() {
            return value;
        }
    }

    /** An integer. */
    record Int(long value) implements Value {
        public double asDouble() {
            return value;
        }

        @Override
        public long asLong() {
            return value;
        }
    }

    /** An array. */
    record Arr(List<Value> items) implements Value {
        public Arr {
            items = Collections.unmodifiableList(new ArrayList<>(items));
        }

        public double asDouble() {
            throw new IllegalStateException("an array is not a number");
        }

        @Override
        public Value get(int i) {
            return items.get(i);
        }

        @Override
        public int size() {
            return items.size();
        }
    }

    /** An object: named values in insertion order. */
    record Obj(Map<String, Value> fields) implements Value {
        public Obj {
            fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        }

        public double asDouble() {
            throw new IllegalStateException("an object is not a number");
        }

        @Override
        public Value get(String name) {
            return fields.get(name);
        }

        @Override
        public int size() {
            return fields.size();
        }
    }

    /** Null (see {@link #NULL}). */
    record Null() implements Value {
        public double asDouble() {
            return Double.NaN;
        }

        @Override
        public boolean isNull() {
            return true;
        }
    }

    /** The number; NaN for {@link #NULL}. */
    double asDouble();

    /** The integer (a number is truncated). */
    default long asLong() {
        return (long) asDouble();
    }

    default int asInt() {
        return Math.toIntExact(asLong());
    }

    default boolean isNull() {
        return false;
    }

    /** An array's item. */
    default Value get(int i) {
        throw new IllegalStateException("not an array");
    }

    /** An object's field, or null when it has none (or this is no object). */
    default Value get(String name) {
        return null;
    }

    /** An array's items. */
    default List<Value> items() {
        throw new IllegalStateException("not an array");
    }

    /** An object's fields, in order (empty for any other value). */
    default Map<String, Value> fields() {
        return Map.of();
    }

    /** Items of an array, fields of an object, else 0. */
    default int size() {
        return 0;
    }

    /** The items of an array as numbers (null as NaN). */
    default double[] doubles() {
        double[] out = new double[size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = get(i).asDouble();
        }
        return out;
    }

    /** The items of an array as integers. */
    default int[] ints() {
        int[] out = new int[size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = get(i).asInt();
        }
        return out;
    }

    static Value of(double v) {
        return Double.isNaN(v) ? NULL : new Real(v);
    }

    static Value of(long v) {
        return new Int(v);
    }

    static Value array(double[] v) {
        List<Value> a = new ArrayList<>(v.length);
        for (double x : v) {
            a.add(of(x));
        }
        return new Arr(a);
    }

    static Value array(int[] v) {
        List<Value> a = new ArrayList<>(v.length);
        for (int x : v) {
            a.add(of(x));
        }
        return new Arr(a);
    }

    static Value array(long[] v) {
        List<Value> a = new ArrayList<>(v.length);
        for (long x : v) {
            a.add(of(x));
        }
        return new Arr(a);
    }

    static Value array(List<Value> items) {
        return new Arr(items);
    }

    /** An object built field by field: {@code Value.object().put("n", 3).put("sum", 1.5).build()}. */
    static ObjectBuilder object() {
        return new ObjectBuilder();
    }

    /** Builds an {@link Obj}, fields in the order put. */
    final class ObjectBuilder {
        private final Map<String, Value> fields = new LinkedHashMap<>();

        private ObjectBuilder() {
        }

        public ObjectBuilder put(String name, Value v) {
            fields.put(name, v);
            return this;
        }

        public ObjectBuilder put(String name, double v) {
            return put(name, of(v));
        }

        public ObjectBuilder put(String name, long v) {
            return put(name, of(v));
        }

        public boolean isEmpty() {
            return fields.isEmpty();
        }

        public Value build() {
            return new Obj(fields);
        }
    }
}
