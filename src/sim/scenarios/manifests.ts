// The manifests of the source articles in ../shared/seeds, as their readers would save them: the same
// fields, values and comments. seeds/003 was published as HTML, which lost the YAML indentation; it is
// restored here the only way that parses to the objects the article describes.

/** seeds/000 (and its partial copy seeds/001): `nginx.yml`, a Deployment of one nginx:1.14.2 pod. */
export const nginxDeploymentYaml = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: nginx-deployment
  labels:
    app: nginx
spec:
  replicas: 1
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:1.14.2
        ports:
        - containerPort: 80
`;

/** seeds/004: `replicaset.yaml`, a bare ReplicaSet of two nginx pods. */
export const myReplicaSetYaml = `apiVersion: apps/v1
kind: ReplicaSet
metadata:
  namespace: default
  name: my-replicaset
spec:
  replicas: 2  # 指定要运行的 Pod 数量
  selector:
    matchLabels:
      app: my-app  # 与 Pod 的标签匹配
  template:
    metadata:
      labels:
        app: my-app  # Pod 的标签
    spec:
      containers:
      - name: my-container  # 容器名称
        image: nginx  # 容器镜像(示例使用 nginx)
        ports:
        - containerPort: 80  # 容器暴露的端口
`;

/** seeds/003: `user-service.yaml`, one Pod with the user service and its MySQL and Redis. */
export const userServicePodYaml = `apiVersion: v1
kind: Pod
metadata:
  name: user-service
  labels:
    name: user-service
spec:
  containers:                    # 定义 user 容器，开放 10086 端口
  - name: user
    image: user
    ports:
    - containerPort: 10086
    imagePullPolicy: IfNotPresent
  - name: mysql                     # 定义 MySQL 容器，开放 3306 端口
    image: mysql-for-user
    ports:
    - containerPort: 3306
    env:
    - name: MYSQL_ROOT_PASSWORD
      value: "123456"
    imagePullPolicy: IfNotPresent
  - name: redis                     # 定义 Redis 容器，开放 6379 端口
    image: redis:5.0
    ports:
    - containerPort: 6379
    imagePullPolicy: IfNotPresent
`;

/** seeds/003: `user-service-deployment.yaml`, the same three containers as a Deployment of 3. */
export const userServiceDeploymentYaml = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: user-service
  labels:
    name: user-service
spec:
  replicas: 3
  selector:
    matchLabels:
      name: user-service
  template:
    metadata:
      labels:
        name: user-service
    spec:
      containers:                    # 定义 user 容器，开放 10086 端口
      - name: user
        image: user
        ports:
        - containerPort: 10086
        imagePullPolicy: IfNotPresent
      - name: mysql                     # 定义 MySQL 容器，开放 3306 端口
        image: mysql-for-user
        ports:
        - containerPort: 3306
        env:
        - name: MYSQL_ROOT_PASSWORD
          value: "123456"
        imagePullPolicy: IfNotPresent
      - name: redis                     # 定义 Redis 容器，开放 6379 端口
        image: redis:5.0
        ports:
        - containerPort: 6379
        imagePullPolicy: IfNotPresent
`;

/**
 * Not from the seeds: a pod that asks for more CPU than any node has (nodes have 4 CPUs), so the
 * scheduler can place it nowhere.
 */
export const bigPodYaml = `apiVersion: v1
kind: Pod
metadata:
  name: big-pod
  labels:
    app: big
spec:
  containers:
  - name: compute
    image: nginx:1.14.2
    resources:
      requests:
        cpu: "8"
        memory: 1Gi
`;
