package io.github.spencerpark.jupyter.kernel.display;

import java.util.LinkedHashMap;
import java.util.Map;

/** Test stand-in for jupyter-jvm-basekernel's DisplayData (public constructor, putData). */
public class DisplayData {
    public final Map<String, Object> data = new LinkedHashMap<>();

    public DisplayData() {
    }

    public void putData(String mime, Object value) {
        data.put(mime, value);
    }
}
