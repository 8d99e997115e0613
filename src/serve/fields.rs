//! The fields of an API request, checked: a body is a JSON object holding only the call's
//! fields, an address holds only the call's parameters, and each value has its type and range.
//! Every refusal names the field (docs/serve.md).

use serde_json::{Map, Value};
use std::collections::HashMap;

/// A refused request: its HTTP status (400 a bad request, 404 no such call, 405 the wrong
/// method) and one line a person can act on.
#[derive(Debug)]
pub struct Refusal {
    pub status: u16,
    pub message: String,
}

impl From<String> for Refusal {
    fn from(message: String) -> Self {
        Refusal {
            status: 400,
            message,
        }
    }
}

impl From<&str> for Refusal {
    fn from(message: &str) -> Self {
        message.to_string().into()
    }
}

pub type Answer = Result<Value, Refusal>;

/// The body of one call: a JSON object whose every key is one of the call's fields.
pub struct Body<'a> {
    map: Option<&'a Map<String, Value>>,
}

impl<'a> Body<'a> {
    /// Checks that `body` (Null when the request had none) is an object with no field but
    /// `allowed`.
    pub fn new(call: &str, body: &'a Value, allowed: &[&str]) -> Result<Body<'a>, Refusal> {
        let map = match body {
            Value::Null => None,
            Value::Object(m) => Some(m),
            _ => return Err(format!("the body of {} must be a JSON object {{…}}", call).into()),
        };
        for k in map.into_iter().flat_map(|m| m.keys()) {
            if !allowed.contains(&k.as_str()) {
                return Err(unknown(k, call, allowed, "field").into());
            }
        }
        Ok(Body { map })
    }

    pub fn get(&self, name: &str) -> Option<&'a Value> {
        self.map.and_then(|m| m.get(name))
    }

    /// A field that must be there, as a string.
    pub fn text(&self, name: &str) -> Result<&'a str, Refusal> {
        match self.get(name) {
            None => Err(format!("the request needs '{}'", name).into()),
            Some(v) => v
                .as_str()
                .ok_or_else(|| format!("'{}' must be a string, not {}", name, v).into()),
        }
    }

    /// An optional string field.
    pub fn text_or(&self, name: &str, default: &'a str) -> Result<&'a str, Refusal> {
        match self.get(name) {
            None => Ok(default),
            Some(_) => self.text(name),
        }
    }

    /// An optional whole number from `min` to `max`.
    pub fn int(&self, name: &str, min: u64, max: u64) -> Result<Option<u64>, Refusal> {
        self.get(name).map(|v| whole(name, v, min, max)).transpose()
    }

    /// A whole number from `min` to `max` that must be there.
    pub fn needed_int(&self, name: &str, min: u64, max: u64) -> Result<u64, Refusal> {
        self.int(name, min, max)?
            .ok_or_else(|| format!("the request needs '{}'", name).into())
    }

    /// An optional object field.
    pub fn object(&self, name: &str) -> Result<Option<&'a Map<String, Value>>, Refusal> {
        match self.get(name) {
            None => Ok(None),
            Some(Value::Object(m)) => Ok(Some(m)),
            Some(v) => Err(format!("'{}' must be a JSON object {{…}}, not {}", name, v).into()),
        }
    }
}

/// "'x' is not a field of /api/new (its fields: a, b)".
fn unknown(key: &str, call: &str, allowed: &[&str], what: &str) -> String {
    if allowed.is_empty() {
        format!("'{}' is not a {} of {} (it takes none)", key, what, call)
    } else {
        format!(
            "'{}' is not a {} of {} (its {}s: {})",
            key,
            what,
            call,
            what,
            allowed.join(", ")
        )
    }
}

/// The wording of a whole number's range.
fn range(min: u64, max: u64) -> String {
    if max == u64::MAX {
        format!("a whole number, {} or more", min)
    } else {
        format!("a whole number from {} to {}", min, max)
    }
}

/// A JSON value that must be a whole number from `min` to `max`.
fn whole(name: &str, v: &Value, min: u64, max: u64) -> Result<u64, Refusal> {
    match v.as_u64() {
        Some(n) if (min..=max).contains(&n) => Ok(n),
        _ => Err(format!("'{}' must be {}, not {}", name, range(min, max), v).into()),
    }
}

/// The parameters of an address (`?id=3&ply=2`): each one of `allowed`, each given once.
pub struct Query<'a> {
    pairs: HashMap<&'a str, &'a str>,
}

impl<'a> Query<'a> {
    pub fn new(call: &str, query: &'a str, allowed: &[&str]) -> Result<Query<'a>, Refusal> {
        let mut pairs = HashMap::new();
        for kv in query.split('&').filter(|kv| !kv.is_empty()) {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            if !allowed.contains(&k) {
                return Err(unknown(k, call, allowed, "parameter").into());
            }
            if pairs.insert(k, v).is_some() {
                return Err(format!("'{}' is given twice in the address", k).into());
            }
        }
        Ok(Query { pairs })
    }

    /// A parameter that must be there, a whole number from `min` to `max`.
    pub fn int(&self, name: &str, min: u64, max: u64) -> Result<u64, Refusal> {
        let v = self
            .pairs
            .get(name)
            .ok_or_else(|| format!("the address needs ?{}=N", name))?;
        match v.parse::<u64>() {
            Ok(n) if (min..=max).contains(&n) => Ok(n),
            _ => Err(format!("'{}' must be {}, not '{}'", name, range(min, max), v).into()),
        }
    }
}

/// Reads a request body as JSON, refusing an object that gives a key twice, at any depth
/// (serde_json alone keeps the last value, so `{"id":1,"move":"x","id":2}` would pass as
/// game 2 where docs/serve.md says every field is checked).
pub fn parse_json(call: &str, body: &str) -> Result<Value, Refusal> {
    let mut de = serde_json::Deserializer::from_str(body);
    let parsed = serde::de::DeserializeSeed::deserialize(Unique, &mut de).and_then(|v| {
        de.end()?;
        Ok(v)
    });
    parsed.map_err(|e| {
        if e.is_data() {
            format!("the body of {} {}", call, e).into()
        } else {
            format!("the request is not JSON: {}", e).into()
        }
    })
}

/// [`parse_json`]'s reader: a [`Value`] built as serde_json builds it, but an object's second
/// use of a key is an error naming it.
struct Unique;

impl<'de> serde::de::DeserializeSeed<'de> for Unique {
    type Value = Value;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Unique {
    type Value = Value;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(v.into())
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(v.into())
    }
    fn visit_f64<E>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut v = Vec::new();
        while let Some(x) = seq.next_element_seed(Unique)? {
            v.push(x);
        }
        Ok(Value::Array(v))
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut m = Map::new();
        while let Some(k) = map.next_key::<String>()? {
            if m.contains_key(&k) {
                return Err(serde::de::Error::custom(format!("gives '{}' twice", k)));
            }
            let v = map.next_value_seed(Unique)?;
            m.insert(k, v);
        }
        Ok(Value::Object(m))
    }
}
