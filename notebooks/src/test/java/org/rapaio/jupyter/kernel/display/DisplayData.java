package org.rapaio.jupyter.kernel.display;

import java.util.LinkedHashMap;
import java.util.Map;

/** Test stand-in: like rapaio's, the constructor is protected and {@code fromText} is the public factory. */
public class DisplayData {
    public final Map<String, Object> data = new LinkedHashMap<>();

    protected DisplayData() {
    }

    public static DisplayData fromText(String text) {
        DisplayData d = new DisplayData();
        d.putData("text/plain", text);
        return d;
    }

    public void putData(String mime, Object value) {
        data.put(mime, value);
    }
}
