// Code a person might have written, for the tests of similar code and adapt.

/** The sample catalog's code #12 ("Check if a value is in an array"), renamed and reindented. */
export const CONTAINS = `function includesItem(list, wanted) {
  var seen = false;
  for (var k = 0; k < list.length; k++) {
    if (list[k] == wanted) {
      seen = true;
    }
  }
  return seen;
}
`;
