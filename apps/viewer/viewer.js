// The mbdae viewer: animates the body poses of a run (docs/viewer.md, docs/results-format.md).
// The page holds everything: THREE (three.js), and in #mbdae-data the scene, the CSV columns, their
// units and one or more pose files (base64). window.mbdaeViewer is the page's test hook.
(function () {
  'use strict';
  const errors = [];
  window.addEventListener('error', (e) => errors.push(String(e.message || e)));

  const D = JSON.parse(document.getElementById('mbdae-data').textContent);
  const SC = D.scene, CSV = D.csv, META = D.meta;
  const NB = SC.bodies.length;

  // ---- pose files (docs/results-format.md) ---------------------------------------------------
  const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  function decodePoses(b64) {
    const bin = atob(b64);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; ++i) bytes[i] = bin.charCodeAt(i);
    const dv = new DataView(bytes.buffer);
    const magic = String.fromCharCode.apply(null, bytes.subarray(0, 8));
    if (magic !== 'MBDAEPOS') throw new Error('not a pose file');
    const header = dv.getUint32(12, true), nb = dv.getUint32(16, true), kind = dv.getUint32(24, true);
    if (dv.getUint32(8, true) !== 1 || dv.getUint32(20, true) !== 7) throw new Error('unsupported pose file');
    const count = Number(dv.getBigUint64(32, true));
    const frequency = dv.getFloat64(40, true);
    let end = 48;
    while (end < 128 && bytes[end] !== 0) ++end;
    const label = new TextDecoder().decode(bytes.subarray(48, end));
    const frameBytes = 8 + 28 * nb;
    const whole = Math.floor((bytes.length - header) / frameBytes);
    const n = count === 0 || count > whole ? whole : count;
    const times = new Float64Array(n), poses = new Float32Array(n * nb * 7);
    for (let f = 0; f < n; ++f) {
      const off = header + f * frameBytes;
      times[f] = dv.getFloat64(off, true);
      if (littleEndian) poses.set(new Float32Array(bytes.buffer, off + 8, nb * 7), f * nb * 7);
      else for (let k = 0; k < nb * 7; ++k) poses[f * nb * 7 + k] = dv.getFloat32(off + 8 + 4 * k, true);
    }
    return { times, poses, nb, kind, label, frequency };
  }
  const sets = D.poses.map(decodePoses);
  for (const s of sets) if (s.nb !== NB) throw new Error('pose file with ' + s.nb + ' bodies, the scene has ' + NB);
  let set = sets[0];

  // ---- three.js scene ------------------------------------------------------------------------
  const canvas = document.getElementById('scene');
  // Large models: no multisampling and coarser spheres and cylinders, so that a computer without
  // a GPU (software WebGL) still plays them smoothly.
  const LARGE = NB > 150;
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: !LARGE, alpha: false });
  renderer.setPixelRatio(window.devicePixelRatio || 1);
  // How the bodies are drawn: instanced (one draw per shape kind; the GPU places each instance), or,
  // for large models on software WebGL (no GPU: SwiftShader, llvmpipe), where every instance costs
  // a fixed ~40 µs whatever its size, as one merged mesh per shape kind whose vertices this script
  // places. "#instanced" or "#merged" at the end of the page's address chooses.
  const SOFTWARE = (() => {
    const gl = renderer.getContext(), ext = gl.getExtension('WEBGL_debug_renderer_info');
    return /swiftshader|llvmpipe|software/i.test(ext ? gl.getParameter(ext.UNMASKED_RENDERER_WEBGL) : '');
  })();
  const MERGED = location.hash === '#merged' || (location.hash !== '#instanced' && LARGE && SOFTWARE);
  const BACKGROUND = 0xf4f5f7;
  renderer.setClearColor(BACKGROUND);
  const scene = new THREE.Scene();
  const camera = new THREE.PerspectiveCamera(35, 1, 0.01, 1000);
  const g = new THREE.Vector3().fromArray(SC.gravity);
  const up = g.lengthSq() > 0 ? g.clone().normalize().negate() : new THREE.Vector3(0, 0, 1);
  camera.up.copy(up);
  scene.add(new THREE.HemisphereLight(0xffffff, 0x667788, 0.6));
  const sun = new THREE.DirectionalLight(0xffffff, 0.45);
  scene.add(sun);

  // Poses of frame f of the current set into per-body matrices.
  const bodyMatrix = [];
  for (let i = 0; i < NB; ++i) bodyMatrix.push(new THREE.Matrix4());
  const _p = new THREE.Vector3(), _q = new THREE.Quaternion(), _s = new THREE.Vector3(1, 1, 1);
  function bodyPose(f, i, m) {
    const o = (f * NB + i) * 7, P = set.poses;
    _p.set(P[o], P[o + 1], P[o + 2]);
    _q.set(P[o + 4], P[o + 5], P[o + 6], P[o + 3]).normalize();
    return m.compose(_p, _q, _s);
  }
  function worldPoint(i, local, out) {  // body i (−1 ground) point in body axes -> world
    out.fromArray(local);
    return i < 0 ? out : out.applyMatrix4(bodyMatrix[i]);
  }
  function worldAxis(i, local, out) {
    out.fromArray(local);
    return i < 0 ? out : out.transformDirection(bodyMatrix[i]);
  }

  // Radius of each body: its shapes' extent about the reference point.
  const bodyRadius = SC.bodies.map((b) => {
    let r = 0;
    for (const s of b.shapes) r = Math.max(r, Math.hypot(...s.position) + 0.5 * Math.hypot(...s.size));
    return r;
  });
  // Size of the model: each body's box (around its shapes, in body axes) over the frames, and the
  // ground points of the joints.
  const bodyCorners = SC.bodies.map((b) => {
    const local = new THREE.Box3(), v = new THREE.Vector3();
    for (const s of b.shapes) {
      const r = s.size[0], l = s.size[1];
      const h = s.kind === 'box' ? [s.size[0] / 2, s.size[1] / 2, s.size[2] / 2] : s.kind === 'sphere' ? [r, r, r]
        : [r, r, l / 2 + (s.kind === 'capsule' ? r : 0)];
      const m = shapeMatrix(s);
      for (let k = 0; k < 8; ++k) local.expandByPoint(v.set(k & 1 ? h[0] : -h[0], k & 2 ? h[1] : -h[1], k & 4 ? h[2] : -h[2]).applyMatrix4(m));
    }
    if (local.isEmpty()) local.expandByPoint(v.set(0, 0, 0));
    const c = [];
    for (let k = 0; k < 8; ++k)
      c.push(new THREE.Vector3(k & 1 ? local.max.x : local.min.x, k & 2 ? local.max.y : local.min.y, k & 4 ? local.max.z : local.min.z));
    return c;
  });
  const box = new THREE.Box3();
  {
    const step = Math.max(1, Math.floor(set.times.length * NB / 200000));
    const v = new THREE.Vector3(), m = new THREE.Matrix4();
    for (let f = 0; f < set.times.length; f += step)
      for (let i = 0; i < NB; ++i) {
        bodyPose(f, i, m);
        for (const c of bodyCorners[i]) box.expandByPoint(v.copy(c).applyMatrix4(m));
      }
    for (const j of SC.joints) for (let k = 0; k < 2; ++k) if (j.bodies[k] < 0) box.expandByPoint(v.fromArray(j.points[k]));
    if (box.isEmpty()) box.expandByPoint(v.set(0, 0, 0));
    box.expandByScalar(1e-3);
  }
  const size = box.getSize(new THREE.Vector3());
  const L = Math.max(size.x, size.y, size.z, 1e-3);
  const center = box.getCenter(new THREE.Vector3());

  // ---- bodies: one InstancedMesh per shape kind, colour and style ----------------------------
  const PALETTE = [0x4c78a8, 0xf58518, 0x54a24b, 0xb279a2, 0x9d755d, 0x72b7b2, 0xe45756, 0xeeca3b];
  const unitGeometry = {
    box: new THREE.BoxBufferGeometry(1, 1, 1),
    sphere: LARGE ? new THREE.SphereBufferGeometry(1, 7, 5) : new THREE.SphereBufferGeometry(1, 24, 16),
    cylinder: new THREE.CylinderBufferGeometry(1, 1, 1, LARGE ? 7 : 28),
  };
  const yToZ = new THREE.Matrix4().makeRotationX(Math.PI / 2);  // three's cylinders run along y
  const instances = [];  // {group, body, local: Matrix4, unit: kind}
  const groups = new Map();
  function addInstance(kind, body, local, colour, inertia) {
    const key = kind + '|' + (inertia ? 'i' : 's');
    if (!groups.has(key)) groups.set(key, { kind, inertia, items: [] });
    const item = { body, local, kind, colour, group: groups.get(key) };
    groups.get(key).items.push(item);
    instances.push(item);
  }
  function shapeMatrix(s) {
    const R = s.rotation;
    const rot = new THREE.Matrix4().set(R[0], R[1], R[2], 0, R[3], R[4], R[5], 0, R[6], R[7], R[8], 0, 0, 0, 0, 1);
    return new THREE.Matrix4().makeTranslation(s.position[0], s.position[1], s.position[2]).multiply(rot);
  }
  function addShape(s, body, colour) {
    const base = shapeMatrix(s), inertia = s.source === 'inertia';
    const S = (x, y, z) => new THREE.Matrix4().makeScale(x, y, z);
    if (s.kind === 'box') addInstance('box', body, base.clone().multiply(S(s.size[0], s.size[1], s.size[2])), colour, inertia);
    else if (s.kind === 'sphere') addInstance('sphere', body, base.clone().multiply(S(s.size[0], s.size[0], s.size[0])), colour, inertia);
    else if (s.kind === 'cylinder' || s.kind === 'capsule') {
      const r = s.size[0], l = s.size[1];
      addInstance('cylinder', body, base.clone().multiply(yToZ).multiply(S(r, l, r)), colour, inertia);
      if (s.kind === 'capsule')
        for (const z of [-l / 2, l / 2])
          addInstance('sphere', body, base.clone().multiply(new THREE.Matrix4().makeTranslation(0, 0, z)).multiply(S(r, r, r)), colour, inertia);
    }
  }
  SC.bodies.forEach((b, i) => { for (const s of b.shapes) addShape(s, i, PALETTE[i % PALETTE.length]); });
  SC.ground.forEach((s) => addShape(s, -1, 0x9aa5b1));
  // One mesh holding every item of a group: the unit shape's vertices repeated, with per-vertex
  // colours; update() writes the placed positions and normals (placeMerged).
  function mergedMesh(gr, material) {
    const unit = unitGeometry[gr.kind], nv = unit.attributes.position.count, n = gr.items.length;
    const index = unit.index.array, ni = index.length;
    const geom = new THREE.BufferGeometry();
    const idx = new (n * nv > 65535 ? Uint32Array : Uint16Array)(n * ni);
    const col = new Float32Array(3 * nv * n), c = new THREE.Color();
    gr.items.forEach((it, k) => {
      for (let i = 0; i < ni; ++i) idx[k * ni + i] = index[i] + k * nv;
      c.setHex(it.colour);
      for (let v = 0; v < nv; ++v) c.toArray(col, 3 * (k * nv + v));
    });
    geom.setIndex(new THREE.BufferAttribute(idx, 1));
    geom.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * nv * n), 3).setUsage(THREE.DynamicDrawUsage));
    geom.setAttribute('normal', new THREE.BufferAttribute(new Float32Array(3 * nv * n), 3).setUsage(THREE.DynamicDrawUsage));
    geom.setAttribute('color', new THREE.BufferAttribute(col, 3));
    material.onBeforeCompile = () => {};  // the colours are ordinary vertex colours here
    const mesh = new THREE.Mesh(geom, material);
    mesh.userData.merged = { unit, nv };
    return mesh;
  }
  const normalMatrix = new THREE.Matrix3();
  function placeMerged(it, m) {
    const { unit, nv } = it.mesh.userData.merged;
    const P = it.mesh.geometry.attributes.position.array, N = it.mesh.geometry.attributes.normal.array;
    const up = unit.attributes.position.array, un = unit.attributes.normal.array, e = m.elements;
    const ne = normalMatrix.getNormalMatrix(m).elements;
    for (let v = 0, o = 3 * it.index * nv; v < nv; ++v, o += 3) {
      const x = up[3 * v], y = up[3 * v + 1], z = up[3 * v + 2];
      P[o] = e[0] * x + e[4] * y + e[8] * z + e[12];
      P[o + 1] = e[1] * x + e[5] * y + e[9] * z + e[13];
      P[o + 2] = e[2] * x + e[6] * y + e[10] * z + e[14];
      const a = un[3 * v], b = un[3 * v + 1], d = un[3 * v + 2];
      const nx = ne[0] * a + ne[3] * b + ne[6] * d, ny = ne[1] * a + ne[4] * b + ne[7] * d, nz = ne[2] * a + ne[5] * b + ne[8] * d;
      const l = 1 / (Math.sqrt(nx * nx + ny * ny + nz * nz) || 1);
      N[o] = nx * l; N[o + 1] = ny * l; N[o + 2] = nz * l;
    }
  }
  const meshes = [];
  for (const gr of groups.values()) {
    // One draw per shape kind: each instance's colour is an instanced attribute (three.js r111
    // has none of its own), put into the material's vertex colour by its shader.
    const geometry = unitGeometry[gr.kind].clone();
    const colours = new Float32Array(3 * gr.items.length), c = new THREE.Color();
    gr.items.forEach((it, k) => c.setHex(it.colour).toArray(colours, 3 * k));
    geometry.setAttribute('instanceColor', new THREE.InstancedBufferAttribute(colours, 3));
    // Lambert shading (lit per vertex) costs least per pixel: for large models.
    const look = { color: 0xffffff, vertexColors: THREE.VertexColors, transparent: gr.inertia,
      opacity: gr.inertia ? 0.55 : 1, depthWrite: !gr.inertia };
    const material = LARGE ? new THREE.MeshLambertMaterial(look)
                           : new THREE.MeshStandardMaterial(Object.assign(look, { roughness: 0.8, metalness: 0 }));
    material.onBeforeCompile = (shader) => {
      shader.vertexShader = 'attribute vec3 instanceColor;\n' +
        shader.vertexShader.replace('#include <color_vertex>', 'vColor.xyz = instanceColor;');
    };
    let mesh;
    if (MERGED) {
      mesh = mergedMesh(gr, material);
    } else {
      // Each instanced mesh has a geometry of its own: three.js r111 does not rebind the instance
      // matrices between two instanced meshes that share a geometry and a shader.
      mesh = new THREE.InstancedMesh(geometry, material, gr.items.length);
    }
    mesh.frustumCulled = false;  // the instances move; the geometry's bounds are the unit shape's
    gr.items.forEach((it, k) => { it.mesh = mesh; it.index = k; });
    gr.mesh = mesh;
    mesh.userData.inertia = gr.inertia;
    scene.add(mesh);
    meshes.push(mesh);
  }
  for (let i = 0; i < NB; ++i) if (!(bodyRadius[i] > 0)) bodyRadius[i] = 0.05 * L;
  const typical = Math.min(...bodyRadius, 0.1 * L);

  // ---- lines: body frames, joint–COM links, springs; markers for joints ----------------------
  function lineSegments(n, vertexColors, colour) {
    const geom = new THREE.BufferGeometry();
    geom.setAttribute('position', new THREE.BufferAttribute(new Float32Array(3 * n), 3));
    if (vertexColors) geom.setAttribute('color', new THREE.BufferAttribute(new Float32Array(3 * n), 3));
    const mat = new THREE.LineBasicMaterial(vertexColors ? { vertexColors: THREE.VertexColors } : { color: colour });
    const l = new THREE.LineSegments(geom, mat);
    l.frustumCulled = false;
    scene.add(l);
    return l;
  }
  const frames = lineSegments(6 * NB, true);
  {
    const c = frames.geometry.attributes.color.array;
    const rgb = [[0.85, 0.1, 0.1], [0.1, 0.65, 0.1], [0.1, 0.25, 0.9]];
    for (let i = 0; i < NB; ++i) for (let a = 0; a < 3; ++a) for (let k = 0; k < 2; ++k) c.set(rgb[a], 3 * (6 * i + 2 * a + k));
  }
  const jointSize = Math.max(0.25 * typical, 0.006 * L);
  const jointMarker = new THREE.InstancedMesh(unitGeometry.sphere.clone(),
    new THREE.MeshStandardMaterial({ color: 0xd62728, roughness: 0.4 }), Math.max(1, 2 * SC.joints.length));
  jointMarker.frustumCulled = false;
  jointMarker.count = 2 * SC.joints.length;
  scene.add(jointMarker);
  const axisJoints = SC.joints.filter((j) => j.axes[0].some((x) => x !== 0) || j.axes[1].some((x) => x !== 0));
  const jointAxis = new THREE.InstancedMesh(unitGeometry.cylinder.clone(),
    new THREE.MeshStandardMaterial({ color: 0x7f3fbf, roughness: 0.5 }), Math.max(1, 2 * axisJoints.length));
  jointAxis.frustumCulled = false;
  jointAxis.count = 2 * axisJoints.length;
  scene.add(jointAxis);
  const jointGap = lineSegments(2 * SC.joints.length, false, 0xd62728);       // a's point to b's point
  let linkCount = 0;
  for (const j of SC.joints) for (let k = 0; k < 2; ++k) if (j.bodies[k] >= 0) ++linkCount;
  const links = lineSegments(2 * Math.max(linkCount, 1), false, 0x52606d);    // COM to joint point
  const COILS = 10, COIL_STEPS = 8 * COILS;
  const springs = lineSegments(2 * Math.max(1, SC.forces.length * COIL_STEPS), false, 0x2b7a0b);

  // ---- ground, planes, gravity ---------------------------------------------------------------
  const groundGroup = new THREE.Group();
  scene.add(groundGroup);
  {
    // A grid perpendicular to "up" just below the motion, with the world axes at the origin.
    let low = Infinity;
    const corners = [];
    for (let k = 0; k < 8; ++k)
      corners.push(new THREE.Vector3(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z));
    for (const c of corners) low = Math.min(low, c.dot(up));
    if (SC.planes.length === 0) {
      const span = 1.6 * L;
      const grid = new THREE.GridHelper(span, 20, 0x9aa5b1, 0xcbd2d9);
      grid.quaternion.setFromUnitVectors(new THREE.Vector3(0, 1, 0), up);
      grid.position.copy(center).addScaledVector(up, low - center.dot(up));
      groundGroup.add(grid);
    }
    for (const p of SC.planes) {
      const n = new THREE.Vector3().fromArray(p.normal).normalize();
      const geom = new THREE.PlaneBufferGeometry(1.6 * L, 1.6 * L, 10, 10);
      const mesh = new THREE.Mesh(geom, new THREE.MeshBasicMaterial({
        color: 0xd3d9df, transparent: true, opacity: 0.55, side: THREE.DoubleSide, depthWrite: false }));
      mesh.quaternion.setFromUnitVectors(new THREE.Vector3(0, 0, 1), n);
      mesh.position.copy(center).addScaledVector(n, p.offset - center.dot(n));
      groundGroup.add(mesh);
      const wire = new THREE.LineSegments(new THREE.WireframeGeometry(geom), new THREE.LineBasicMaterial({ color: 0x9aa5b1 }));
      wire.quaternion.copy(mesh.quaternion);
      wire.position.copy(mesh.position);
      groundGroup.add(wire);
    }
    const axes = new THREE.AxesHelper(0.15 * L);
    groundGroup.add(axes);
    if (g.lengthSq() > 0) {
      // Above the box's corner nearest the viewer's left, pointing down along g.
      const start = box.min.clone().addScaledVector(up, up.dot(size) + 0.05 * L);
      groundGroup.add(new THREE.ArrowHelper(g.clone().normalize(), start, 0.15 * L, 0x222222, 0.04 * L, 0.02 * L));
    }
  }

  // ---- trails --------------------------------------------------------------------------------
  const columnIndex = new Map(CSV.columns.map((c, i) => [c, i]));
  const trails = [];
  // More body trails than this go into a list of their own, closed at first (the panel stays short).
  const TRAIL_LIST_MAX = 12;
  function addTrail(label, points, colour, on, parent) {
    const n = points.length / 3;
    const geom = new THREE.BufferGeometry();
    geom.setAttribute('position', new THREE.BufferAttribute(points, 3));
    const line = new THREE.Line(geom, new THREE.LineBasicMaterial({ color: colour }));
    line.frustumCulled = false;
    line.visible = on;
    scene.add(line);
    const id = 'trail-' + trails.length;
    const el = document.createElement('label');
    el.innerHTML = '<input type="checkbox" id="' + id + '"' + (on ? ' checked' : '') + '> ';
    el.appendChild(document.createTextNode(label));
    (parent || document.getElementById('trails')).appendChild(el);
    document.getElementById(id).addEventListener('change', (e) => { line.visible = e.target.checked; dirty = true; });
    trails.push({ line, n, fromCsv: label.startsWith('sensor') });
  }
  function buildTrails() {
    for (const t of trails) scene.remove(t.line);
    trails.length = 0;
    document.getElementById('trails').textContent = '';
    let k = 0;
    if (set.kind === 0)
      for (const s of SC.sensors) {
        if (s.output !== 'position') continue;
        const cols = ['x', 'y', 'z'].map((a) => columnIndex.get(s.name + '.' + a));
        if (cols.some((c) => c === undefined)) continue;
        const n = CSV.data[0].length, pts = new Float32Array(3 * n);
        for (let r = 0; r < n; ++r) for (let a = 0; a < 3; ++a) pts[3 * r + a] = CSV.data[cols[a]][r];
        addTrail('sensor ' + s.name, pts, PALETTE[(k++ + 3) % PALETTE.length], k <= 8);
      }
    const m = new THREE.Matrix4(), v = new THREE.Vector3();
    const nCom = Math.min(NB, 200);
    let comList = null;
    if (nCom > TRAIL_LIST_MAX) {
      const box = document.createElement('details');
      box.id = 'trails-com';
      box.innerHTML = '<summary>COM of ' + nCom + ' bodies</summary>';
      comList = document.createElement('div');
      box.appendChild(comList);
      document.getElementById('trails').appendChild(box);
    }
    for (let i = 0; i < nCom; ++i) {
      const n = set.times.length, pts = new Float32Array(3 * n);
      for (let f = 0; f < n; ++f) {
        v.fromArray(SC.bodies[i].com).applyMatrix4(bodyPose(f, i, m));
        pts[3 * f] = v.x; pts[3 * f + 1] = v.y; pts[3 * f + 2] = v.z;
      }
      addTrail('COM of ' + SC.bodies[i].name, pts, PALETTE[i % PALETTE.length], false, comList);
    }
    document.getElementById('trails-box').open = trails.some((t) => t.line.visible);
  }

  // ---- camera control: orbit (left drag), pan (right drag or shift), zoom (wheel) -----------
  const view = { target: center.clone(), offset: new THREE.Vector3() };
  {
    // Planar motion (one thin side of the box): look along it; else from an oblique direction.
    const s = [size.x, size.y, size.z], thin = s.indexOf(Math.min(...s));
    let dir;
    if (s[thin] < 0.25 * Math.max(...s) && Math.abs(new THREE.Vector3().setComponent(thin, 1).dot(up)) < 0.9) {
      dir = new THREE.Vector3().setComponent(thin, 1);
      const side = new THREE.Vector3().crossVectors(up, dir).normalize();
      dir.addScaledVector(up, 0.35).addScaledVector(side, 0.3).normalize();
    } else {
      const a = Math.abs(up.x) > 0.9 ? new THREE.Vector3(0, 1, 0) : new THREE.Vector3(1, 0, 0);
      const b = new THREE.Vector3().crossVectors(up, a);
      dir = a.clone().multiplyScalar(1).add(b.multiplyScalar(-0.8)).addScaledVector(up, 0.6).normalize();
    }
    const fov = THREE.MathUtils ? THREE.MathUtils.degToRad(camera.fov) : camera.fov * Math.PI / 180;
    view.offset.copy(dir).multiplyScalar(0.62 * L / Math.tan(fov / 2));
  }
  // The first view: from that direction, as close as the whole motion (the box) still fits in 85 %
  // of the canvas.
  function fitView() {
    const w = Math.max(canvas.clientWidth, 1), h = Math.max(canvas.clientHeight, 1);
    const corners = [];
    for (let k = 0; k < 8; ++k)
      corners.push(new THREE.Vector3(k & 1 ? box.max.x : box.min.x, k & 2 ? box.max.y : box.min.y, k & 4 ? box.max.z : box.min.z));
    const cam = camera.clone();
    cam.aspect = w / h;
    for (let it = 0; it < 6; ++it) {
      cam.position.copy(view.target).add(view.offset);
      cam.near = 1e-3 * view.offset.length();
      cam.lookAt(view.target);
      cam.updateProjectionMatrix();
      cam.updateMatrixWorld();
      let m = 0;
      for (const c of corners) {
        const v = c.clone().applyMatrix4(cam.matrixWorldInverse);
        if (v.z > -cam.near) { m = 10; break; }
        const p = c.clone().project(cam);
        m = Math.max(m, Math.abs(p.x), Math.abs(p.y));
      }
      view.offset.multiplyScalar(Math.min(Math.max(m / 0.85, 0.5), 2));
    }
  }
  fitView();
  const home = { target: view.target.clone(), offset: view.offset.clone() };
  let follow = -1;
  function placeCamera() {
    if (follow >= 0) view.target.fromArray(SC.bodies[follow].com).applyMatrix4(bodyMatrix[follow]);
    camera.position.copy(view.target).add(view.offset);
    const d = view.offset.length();
    camera.near = Math.max(d * 1e-3, 1e-4);
    camera.far = d + 20 * L;
    camera.lookAt(view.target);
    camera.updateProjectionMatrix();
    camera.updateMatrixWorld();
    sun.position.copy(camera.position).addScaledVector(up, L);
  }
  let drag = null;
  canvas.addEventListener('contextmenu', (e) => e.preventDefault());
  canvas.addEventListener('pointerdown', (e) => {
    drag = { x: e.clientX, y: e.clientY, pan: e.button === 2 || e.shiftKey || e.button === 1 };
    canvas.setPointerCapture(e.pointerId);
    canvas.style.cursor = 'grabbing';
  });
  canvas.addEventListener('pointerup', (e) => { drag = null; canvas.releasePointerCapture(e.pointerId); canvas.style.cursor = 'grab'; });
  canvas.addEventListener('pointermove', (e) => {
    if (!drag) { hover(e); return; }
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    drag.x = e.clientX; drag.y = e.clientY;
    if (drag.pan) {
      const d = view.offset.length() * 2 * Math.tan(camera.fov * Math.PI / 360) / canvas.clientHeight;
      const right = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 0);
      const upv = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 1);
      view.target.addScaledVector(right, -dx * d).addScaledVector(upv, dy * d);
    } else {
      view.offset.applyAxisAngle(up, -dx * 0.008);
      const right = new THREE.Vector3().crossVectors(view.offset, up).normalize();
      const turned = view.offset.clone().applyAxisAngle(right, dy * 0.008);
      if (Math.abs(turned.clone().normalize().dot(up)) < 0.995) view.offset.copy(turned);
    }
    dirty = true;
  });
  canvas.addEventListener('wheel', (e) => {
    e.preventDefault();
    view.offset.multiplyScalar(Math.exp(Math.sign(e.deltaY) * 0.12));
    dirty = true;
  }, { passive: false });
  function resetView() {
    view.target.copy(home.target);
    view.offset.copy(home.offset);
    fitView();
    follow = -1;
    document.getElementById('follow').value = '-1';
    dirty = true;
  }

  // ---- time ----------------------------------------------------------------------------------
  let frame = 0, playing = false, simTime = 0, dirty = true, lastWall = null;
  const slider = document.getElementById('slider');
  function frameAt(t) {  // the last frame with time <= t (binary search)
    const T = set.times;
    let lo = 0, hi = T.length - 1;
    if (t <= T[0]) return 0;
    if (t >= T[hi]) return hi;
    while (hi - lo > 1) { const mid = (lo + hi) >> 1; if (T[mid] <= t) lo = mid; else hi = mid; }
    return t - T[lo] < T[hi] - t ? lo : hi;
  }
  function setFrame(f) {
    frame = Math.max(0, Math.min(set.times.length - 1, f | 0));
    simTime = set.times[frame];
    slider.value = String(frame);
    dirty = true;
  }
  function setPlaying(p) {
    playing = p && set.times.length > 1;
    if (playing && frame >= set.times.length - 1) setFrame(0);
    lastWall = null;
    document.getElementById('play').innerHTML = playing ? '&#10074;&#10074;' : '&#9654;';
  }
  function selectSet(k) {
    set = sets[k];
    slider.max = String(Math.max(0, set.times.length - 1));
    buildTrails();
    setFrame(0);
    drawPlot();
  }

  // ---- per-frame update ----------------------------------------------------------------------
  const tmpM = new THREE.Matrix4(), tmpV = new THREE.Vector3(), tmpW = new THREE.Vector3(), tmpA = new THREE.Vector3();
  function update() {
    for (let i = 0; i < NB; ++i) bodyPose(frame, i, bodyMatrix[i]);
    for (const it of instances) {
      if (it.body < 0) tmpM.copy(it.local); else tmpM.multiplyMatrices(bodyMatrix[it.body], it.local);
      if (MERGED) placeMerged(it, tmpM);
      else it.mesh.setMatrixAt(it.index, tmpM);
    }
    for (const m of meshes) {
      if (MERGED) m.geometry.attributes.position.needsUpdate = m.geometry.attributes.normal.needsUpdate = true;
      else m.instanceMatrix.needsUpdate = true;
    }
    // body frames
    const fp = frames.geometry.attributes.position.array;
    if (frames.visible)
      for (let i = 0; i < NB; ++i) {
        const len = 0.6 * bodyRadius[i], e = bodyMatrix[i].elements;
        for (let a = 0; a < 3; ++a) {
          const k = 3 * (6 * i + 2 * a);
          for (let c = 0; c < 3; ++c) {
            fp[k + c] = e[12 + c];
            fp[k + 3 + c] = e[12 + c] + len * e[4 * a + c];
          }
        }
      }
    frames.geometry.attributes.position.needsUpdate = true;
    // joints
    const gp = jointGap.geometry.attributes.position.array, lp = links.geometry.attributes.position.array;
    let li = 0, ai = 0;
    SC.joints.forEach((j, k) => {
      for (let e = 0; e < 2; ++e) {
        worldPoint(j.bodies[e], j.points[e], tmpV);
        tmpM.compose(tmpV, _q.set(0, 0, 0, 1), tmpW.setScalar(jointSize));
        jointMarker.setMatrixAt(2 * k + e, tmpM);
        gp.set([tmpV.x, tmpV.y, tmpV.z], 3 * (2 * k + e));
        if (j.bodies[e] >= 0) {
          tmpW.fromArray(SC.bodies[j.bodies[e]].com).applyMatrix4(bodyMatrix[j.bodies[e]]);
          lp.set([tmpW.x, tmpW.y, tmpW.z, tmpV.x, tmpV.y, tmpV.z], 6 * li++);
        }
      }
    });
    axisJoints.forEach((j) => {
      for (let e = 0; e < 2; ++e) {
        worldPoint(j.bodies[e], j.points[e], tmpV);
        worldAxis(j.bodies[e], j.axes[e], tmpA);
        if (tmpA.lengthSq() === 0) { tmpM.makeScale(0, 0, 0); jointAxis.setMatrixAt(ai++, tmpM); continue; }
        _q.setFromUnitVectors(new THREE.Vector3(0, 1, 0), tmpA.normalize());
        tmpM.compose(tmpV, _q, tmpW.set(0.35 * jointSize, 5 * jointSize, 0.35 * jointSize));
        jointAxis.setMatrixAt(ai++, tmpM);
      }
    });
    jointMarker.instanceMatrix.needsUpdate = jointAxis.instanceMatrix.needsUpdate = true;
    jointGap.geometry.attributes.position.needsUpdate = links.geometry.attributes.position.needsUpdate = true;
    // spring-dampers: a coil between the points (a straight line for the other force elements)
    const sp = springs.geometry.attributes.position.array;
    const a = new THREE.Vector3(), b = new THREE.Vector3(), u = new THREE.Vector3(), v = new THREE.Vector3(), w = new THREE.Vector3();
    SC.forces.forEach((fe, k) => {
      worldPoint(fe.bodies[0], fe.points[0], a);
      worldPoint(fe.bodies[1], fe.points[1], b);
      const base = 3 * 2 * k * COIL_STEPS;
      const d = b.clone().sub(a), len = d.length();
      const coil = fe.type === 'spring_damper' && len > 0;
      if (coil) {
        d.divideScalar(len);
        u.set(1, 0, 0);
        if (Math.abs(d.x) > 0.9) u.set(0, 1, 0);
        u.sub(w.copy(d).multiplyScalar(u.dot(d))).normalize();
        v.crossVectors(d, u);
      }
      const r = Math.min(0.8 * jointSize, 0.15 * Math.max(len, 1e-9));
      let prev = a.clone();
      for (let s = 1; s <= COIL_STEPS; ++s) {
        const x = s / COIL_STEPS, next = a.clone().lerp(b, x);
        if (coil && s < COIL_STEPS && x > 0.1 && x < 0.9) {
          const ph = 2 * Math.PI * COILS * (x - 0.1) / 0.8;
          next.addScaledVector(u, r * Math.cos(ph)).addScaledVector(v, r * Math.sin(ph));
        }
        sp.set([prev.x, prev.y, prev.z, next.x, next.y, next.z], base + 6 * (s - 1));
        prev = next;
      }
    });
    springs.geometry.attributes.position.needsUpdate = true;
    for (const t of trails) t.line.geometry.setDrawRange(0, Math.min(frame + 1, t.n));
    // text
    const T = set.times[frame];
    document.getElementById('time').textContent = (set.kind === 1 ? 'phase ' : 't = ') + T.toPrecision(6) +
      (set.kind === 1 ? '' : ' s') + '   frame ' + (frame + 1) + ' / ' + set.times.length;
    updateTooltip();
    drawPlotCursor();
  }

  // ---- hover: the body under the pointer (rays against each shape's box) ---------------------
  const tooltip = document.getElementById('tooltip');
  let hoverBody = -1, hoverXY = null;
  const raycaster = new THREE.Raycaster();
  function pick(clientX, clientY) {
    const r = canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    raycaster.setFromCamera(ndc, camera);
    let best = Infinity, body = -1;
    const inv = new THREE.Matrix4(), ray = new THREE.Ray(), hit = new THREE.Vector3(), m = new THREE.Matrix4();
    const unitBox = {
      box: new THREE.Box3(new THREE.Vector3(-0.5, -0.5, -0.5), new THREE.Vector3(0.5, 0.5, 0.5)),
      sphere: new THREE.Box3(new THREE.Vector3(-1, -1, -1), new THREE.Vector3(1, 1, 1)),
      cylinder: new THREE.Box3(new THREE.Vector3(-1, -0.5, -1), new THREE.Vector3(1, 0.5, 1)),
    };
    for (const it of instances) {
      if (it.body < 0 || (it.group.inertia && !it.mesh.visible)) continue;
      m.multiplyMatrices(bodyMatrix[it.body], it.local);
      inv.getInverse ? inv.getInverse(m) : inv.copy(m).invert();
      ray.copy(raycaster.ray).applyMatrix4(inv);
      if (!ray.intersectBox(unitBox[it.kind], hit)) continue;
      hit.applyMatrix4(m);
      const d = hit.distanceTo(raycaster.ray.origin);
      if (d < best) { best = d; body = it.body; }
    }
    return body;
  }
  function hover(e) {
    hoverBody = pick(e.clientX, e.clientY);
    const r = canvas.getBoundingClientRect();
    hoverXY = [e.clientX - r.left, e.clientY - r.top];
    updateTooltip();
  }
  canvas.addEventListener('pointerleave', () => { hoverBody = -1; updateTooltip(); });
  function sensorColumns(name) {
    const out = [];
    CSV.columns.forEach((c, i) => {
      if (META && META.columns && META.columns[i]) { if (META.columns[i].sensor === name) out.push(i); }
      else if (c === name || c.startsWith(name + '.')) out.push(i);
    });
    return out;
  }
  function unitOf(i) { return META && META.columns && META.columns[i] ? META.columns[i].unit : ''; }
  function bodyText(i) {
    const b = SC.bodies[i];
    let s = b.name + '\nmass ' + b.mass.toPrecision(4) + ' kg';
    if (set.kind === 0) {
      const row = Math.min(frame, CSV.data[0].length - 1);
      s += '   t = ' + CSV.data[0][row].toPrecision(6) + ' s';
      for (const sen of SC.sensors) {
        if (sen.body !== i) continue;
        for (const c of sensorColumns(sen.name)) {
          const x = CSV.data[c][row];
          s += '\n' + CSV.columns[c] + ' = ' + (x === null ? 'nan' : x.toPrecision(6)) + (unitOf(c) ? ' ' + unitOf(c) : '');
        }
      }
    }
    return s;
  }
  function updateTooltip() {
    if (hoverBody < 0 || !hoverXY) { tooltip.hidden = true; return; }
    tooltip.textContent = bodyText(hoverBody);
    tooltip.hidden = false;
    const w = canvas.clientWidth;
    tooltip.style.left = Math.min(hoverXY[0] + 14, w - tooltip.offsetWidth - 4) + 'px';
    tooltip.style.top = (hoverXY[1] + 14) + 'px';
  }

  // ---- plot panel ----------------------------------------------------------------------------
  const plot = document.getElementById('plot'), pctx = plot.getContext('2d');
  const selA = document.getElementById('plot-a'), selB = document.getElementById('plot-b');
  const PAD = { left: 64, right: 16, top: 10, bottom: 24 };
  let plotImage = null;
  const plotSize = [0, 0];  // CSS px the plot was drawn for
  {
    const none = document.createElement('option');
    none.value = '-1'; none.textContent = '(none)';
    selB.appendChild(none);
    CSV.columns.forEach((c, i) => {
      if (i === 0) return;
      const u = unitOf(i), label = c + (u ? ' [' + u + ']' : '');
      for (const sel of [selA, selB]) {
        const o = document.createElement('option');
        o.value = String(i); o.textContent = label;
        sel.appendChild(o);
      }
    });
    const first = CSV.columns.findIndex((c, i) => i > 0 && CSV.data[i].some((x) => x !== 0 && x !== null));
    selA.value = String(first > 0 ? first : Math.min(1, CSV.columns.length - 1));
    selB.value = '-1';
    if (CSV.columns.length < 2) document.getElementById('plotbar').hidden = true;
  }
  function niceStep(span, n) {
    const raw = span / n, p = Math.pow(10, Math.floor(Math.log10(raw))), f = raw / p;
    return (f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10) * p;
  }
  function plotX(t) {
    const T = CSV.data[0], t0 = T[0], t1 = T[T.length - 1], w = plot.clientWidth;
    return PAD.left + (t1 > t0 ? (t - t0) / (t1 - t0) : 0) * (w - PAD.left - PAD.right);
  }
  function drawPlot() {
    const dpr = window.devicePixelRatio || 1, w = plot.clientWidth, h = plot.clientHeight;
    if (w === 0 || h === 0) { plotImage = null; return; }  // hidden
    plot.width = Math.round(w * dpr); plot.height = Math.round(h * dpr);
    plotSize[0] = w; plotSize[1] = h;
    pctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    pctx.fillStyle = '#fff'; pctx.fillRect(0, 0, w, h);
    const cols = [selA.value, selB.value].map(Number).filter((c) => c > 0);
    const T = CSV.data[0];
    if (!cols.length || T.length === 0) { plotImage = pctx.getImageData(0, 0, plot.width, plot.height); return; }
    let lo = Infinity, hi = -Infinity;
    for (const c of cols) for (const x of CSV.data[c]) if (x !== null && isFinite(x)) { lo = Math.min(lo, x); hi = Math.max(hi, x); }
    if (!isFinite(lo)) { lo = -1; hi = 1; }
    if (hi - lo < 1e-12 * Math.max(1, Math.abs(hi))) { lo -= 1; hi += 1; }
    const m = 0.05 * (hi - lo); lo -= m; hi += m;
    const y = (v) => PAD.top + (1 - (v - lo) / (hi - lo)) * (h - PAD.top - PAD.bottom);
    pctx.strokeStyle = '#e4e7eb'; pctx.fillStyle = '#52606d'; pctx.font = '11px system-ui, sans-serif'; pctx.lineWidth = 1;
    const ys = niceStep(hi - lo, 4);
    pctx.textAlign = 'right';
    for (let v = Math.ceil(lo / ys) * ys; v <= hi; v += ys) {
      pctx.beginPath(); pctx.moveTo(PAD.left, y(v)); pctx.lineTo(w - PAD.right, y(v)); pctx.stroke();
      pctx.fillText(Number(v.toPrecision(6)).toString(), PAD.left - 4, y(v) + 4);
    }
    const t0 = T[0], t1 = T[T.length - 1], ts = niceStep(Math.max(t1 - t0, 1e-12), 8);
    pctx.textAlign = 'center';
    for (let t = Math.ceil(t0 / ts) * ts; t <= t1 + 1e-12; t += ts) {
      pctx.beginPath(); pctx.moveTo(plotX(t), PAD.top); pctx.lineTo(plotX(t), h - PAD.bottom); pctx.stroke();
      pctx.fillText(Number(t.toPrecision(6)) + ' s', plotX(t), h - 8);
    }
    pctx.strokeStyle = '#9aa5b1'; pctx.strokeRect(PAD.left, PAD.top, w - PAD.left - PAD.right, h - PAD.top - PAD.bottom);
    const colours = ['#1f5fa8', '#e07b00'];
    cols.forEach((c, k) => {
      pctx.strokeStyle = colours[k]; pctx.lineWidth = 1.5; pctx.beginPath();
      let pen = false;
      T.forEach((t, r) => {
        const v = CSV.data[c][r];
        if (v === null || !isFinite(v)) { pen = false; return; }
        if (pen) pctx.lineTo(plotX(t), y(v)); else pctx.moveTo(plotX(t), y(v));
        pen = true;
      });
      pctx.stroke();
      pctx.fillStyle = colours[k]; pctx.textAlign = 'left';
      pctx.fillText(CSV.columns[c] + (unitOf(c) ? ' [' + unitOf(c) + ']' : ''), PAD.left + 6 + 160 * k, PAD.top + 12);
    });
    plotImage = pctx.getImageData(0, 0, plot.width, plot.height);
    drawPlotCursor();
  }
  let cursorX = null;
  function drawPlotCursor() {
    if (!plotImage) return;
    pctx.putImageData(plotImage, 0, 0);
    cursorX = null;
    const out = document.getElementById('plot-value');
    if (set.kind !== 0 || CSV.data[0].length === 0) { out.textContent = ''; return; }
    const row = Math.min(frame, CSV.data[0].length - 1), t = CSV.data[0][row];
    cursorX = plotX(t);
    pctx.strokeStyle = '#d62728'; pctx.lineWidth = 2;
    pctx.beginPath(); pctx.moveTo(cursorX, PAD.top); pctx.lineTo(cursorX, plot.clientHeight - PAD.bottom); pctx.stroke();
    const cols = [selA.value, selB.value].map(Number).filter((c) => c > 0);
    out.textContent = cols.map((c) => CSV.columns[c] + ' = ' + (CSV.data[c][row] === null ? 'nan' : CSV.data[c][row].toPrecision(6))).join('   ');
  }
  selA.addEventListener('change', drawPlot);
  selB.addEventListener('change', drawPlot);

  // ---- controls ------------------------------------------------------------------------------
  const followSel = document.getElementById('follow');
  SC.bodies.forEach((b, i) => {
    if (i >= 500) return;
    const o = document.createElement('option');
    o.value = String(i); o.textContent = b.name;
    followSel.appendChild(o);
  });
  followSel.addEventListener('change', () => {
    follow = Number(followSel.value);
    if (follow >= 0) bodyPose(frame, follow, bodyMatrix[follow]);
    dirty = true;
  });
  document.getElementById('play').addEventListener('click', () => setPlaying(!playing));
  document.getElementById('prev').addEventListener('click', () => { setPlaying(false); setFrame(frame - 1); });
  document.getElementById('next').addEventListener('click', () => { setPlaying(false); setFrame(frame + 1); });
  document.getElementById('reset').addEventListener('click', resetView);
  slider.addEventListener('input', () => setFrame(Number(slider.value)));
  const speedSel = document.getElementById('speed'), loopBox = document.getElementById('loop');
  function toggle(id, objects) {
    const box = document.getElementById(id);
    const apply = () => { for (const o of objects()) o.visible = box.checked; dirty = true; };
    box.addEventListener('change', apply);
    apply();
  }
  toggle('show-frames', () => [frames]);
  toggle('show-joints', () => [jointMarker, jointAxis, jointGap]);
  toggle('show-forces', () => [springs]);
  toggle('show-links', () => [links]);
  toggle('show-ground', () => [groundGroup]);
  toggle('show-inertia', () => meshes.filter((m) => m.userData.inertia));
  if (!meshes.some((m) => m.userData.inertia)) document.getElementById('show-inertia').parentElement.hidden = true;
  window.addEventListener('keydown', (e) => {
    if (e.target.tagName === 'SELECT' || (e.target.tagName === 'INPUT' && e.target.type !== 'range' && e.target.type !== 'checkbox')) return;
    if (e.key === ' ') { setPlaying(!playing); e.preventDefault(); }
    else if (e.key === 'ArrowRight') { setPlaying(false); setFrame(frame + 1); e.preventDefault(); }
    else if (e.key === 'ArrowLeft') { setPlaying(false); setFrame(frame - 1); e.preventDefault(); }
    else if (e.key === 'Home') setFrame(0);
    else if (e.key === 'End') setFrame(set.times.length - 1);
    else if (e.key === 'r') resetView();
  });
  if (sets.length > 1) {
    const sel = document.getElementById('set');
    sets.forEach((s, k) => {
      const o = document.createElement('option');
      o.value = String(k);
      o.textContent = s.label || (k === 0 ? 'run' : 'poses ' + k);
      sel.appendChild(o);
    });
    sel.addEventListener('change', () => selectSet(Number(sel.value)));
    document.getElementById('set-label').hidden = false;
  }
  document.getElementById('title').textContent = SC.model;
  document.getElementById('legend').innerHTML =
    '<span style="color:#d62728">&#9679;</span> joint point &nbsp;<span style="color:#7f3fbf">&#9646;</span> joint axis<br>' +
    'frames: <span style="color:#d91a1a">x</span> <span style="color:#1aa61a">y</span> <span style="color:#1a40e6">z</span>' +
    (g.lengthSq() > 0 ? ' &nbsp;&#8595; gravity' : '');

  // ---- render loop ---------------------------------------------------------------------------
  let rendered = 0, renderMs = 0;
  function resize() {
    const r = renderer.getPixelRatio();
    const w = canvas.clientWidth, h = canvas.clientHeight;
    if (canvas.width !== Math.round(w * r) || canvas.height !== Math.round(h * r)) {
      renderer.setSize(w, h, false);
      camera.aspect = w / Math.max(h, 1);
      dirty = true;
      if (plot.clientWidth !== plotSize[0] || plot.clientHeight !== plotSize[1]) drawPlot();
    }
  }
  function render() {
    const start = performance.now();
    resize();
    update();
    placeCamera();
    renderer.render(scene, camera);
    ++rendered;
    renderMs += performance.now() - start;
    dirty = false;
  }
  function loop(now) {
    if (playing) {
      if (lastWall !== null) {
        simTime += (now - lastWall) / 1000 * Number(speedSel.value);
        const T = set.times, end = T[T.length - 1];
        if (simTime > end) {
          if (loopBox.checked) simTime = T[0] + (simTime - end) % Math.max(end - T[0], 1e-12);
          else { simTime = end; setPlaying(false); }
        }
        frame = frameAt(simTime);
        slider.value = String(frame);
      }
      lastWall = now;
      dirty = true;
    }
    if (dirty) render();
    requestAnimationFrame(loop);
  }
  window.addEventListener('resize', () => { dirty = true; });

  selectSet(0);
  render();
  requestAnimationFrame(loop);

  // ---- the test hook -------------------------------------------------------------------------
  function project(world) {
    const v = world.clone().project(camera);
    return [(v.x + 1) / 2 * canvas.clientWidth, (1 - v.y) / 2 * canvas.clientHeight];
  }
  function bodyIndex(name) {
    const i = SC.bodies.findIndex((b) => b.name === name);
    if (i < 0) throw new Error('no body ' + name);
    return i;
  }
  window.mbdaeViewer = {
    ready: true,
    errors,
    bodyNames: () => SC.bodies.map((b) => b.name),
    frameCount: () => set.times.length,
    frame: () => frame,
    time: () => set.times[frame],
    times: () => Array.from(set.times),
    setFrame: (f) => { setPlaying(false); setFrame(f); render(); return frame; },
    setTime: (t) => { setPlaying(false); setFrame(frameAt(t)); render(); return set.times[frame]; },
    play: () => setPlaying(true),
    pause: () => setPlaying(false),
    playing: () => playing,
    pixelRatio: () => renderer.getPixelRatio(),
    drawing: () => (MERGED ? 'merged' : 'instanced'),
    // Screen position (CSS px from the canvas's top left) of a body point (body axes, m).
    screenPosition: (name, point) => {
      const i = bodyIndex(name);
      return project(new THREE.Vector3().fromArray(point || [0, 0, 0]).applyMatrix4(bodyMatrix[i]));
    },
    // Screen positions of a joint's point on its first and on its second body.
    jointScreenPositions: (name) => {
      const j = SC.joints.find((x) => x.name === name);
      if (!j) throw new Error('no joint ' + name);
      return [0, 1].map((e) => project(worldPoint(j.bodies[e], j.points[e], new THREE.Vector3())));
    },
    camera: () => ({
      position: camera.position.toArray(), target: view.target.toArray(), up: camera.up.toArray(),
      fov: camera.fov, aspect: camera.aspect, near: camera.near, far: camera.far,
      width: canvas.clientWidth, height: canvas.clientHeight,
    }),
    canvasRect: () => { const r = canvas.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; },
    plotCursorX: () => cursorX,
    plotArea: () => ({ left: PAD.left, right: plot.clientWidth - PAD.right, top: PAD.top,
      bottom: plot.clientHeight - PAD.bottom, rect: [plot.getBoundingClientRect().left, plot.getBoundingClientRect().top] }),
    hoverText: (name) => bodyText(bodyIndex(name)),
    pick: (x, y) => { const r = canvas.getBoundingClientRect(); const b = pick(r.left + x, r.top + y); return b < 0 ? null : SC.bodies[b].name; },
    follow: (name) => { followSel.value = String(name === null ? -1 : bodyIndex(name)); followSel.dispatchEvent(new Event('change')); render(); },
    resetView: () => { resetView(); render(); },
    three: { scene, camera, renderer },
    columnIndex: (name) => CSV.columns.indexOf(name),
    rendered: () => rendered,
    // Milliseconds of script per drawn frame (updating the scene and issuing the draw calls).
    scriptMsPerFrame: () => renderMs / Math.max(rendered, 1),
    // Frames drawn per second while playing, over `ms` milliseconds of wall time.
    measureFps: (ms) => new Promise((resolve) => {
      setPlaying(true);
      const n0 = rendered, t0 = performance.now();
      setTimeout(() => resolve((rendered - n0) / ((performance.now() - t0) / 1000)), ms);
    }),
  };
})();
