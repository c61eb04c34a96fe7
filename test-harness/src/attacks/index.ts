export { makeMarker, expectMarker, expectNoMarker, type Marker } from './marker.js';
export { describeAttack, type AttackCase, type AttackClass } from './describe-attacks.js';
