package fsil.methods.ncmforest;

import java.util.Arrays;

/** A growable array of primitive ints (no boxing), used for sample index lists. */
final class IntList {
    private int[] a;
    private int size;

    IntList() {
        this(16);
    }

    IntList(int capacity) {
        a = new int[Math.max(4, capacity)];
    }

    void add(int v) {
        if (size == a.length) {
            a = Arrays.copyOf(a, a.length * 2);
        }
        a[size++] = v;
    }

    void addAll(int[] values) {
        addAll(values, 0, values.length);
    }

    void addAll(int[] values, int from, int to) {
        int n = to - from;
        if (size + n > a.length) {
            a = Arrays.copyOf(a, Math.max(a.length * 2, size + n));
        }
        System.arraycopy(values, from, a, size, n);
        size += n;
    }

    int get(int i) {
        return a[i];
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void clear() {
        size = 0;
    }

    int[] toArray() {
        return Arrays.copyOf(a, size);
    }

    int[] toSortedArray() {
        int[] out = toArray();
        Arrays.sort(out);
        return out;
    }
}
